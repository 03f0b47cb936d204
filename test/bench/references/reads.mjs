// The references' pet reads: one statement per request, as a plain server does (the
// default). With BENCH_REFERENCE_READS=batched, the reads of one turn of the event loop
// go to PostgreSQL together once the turn has handled its I/O, identical ones as one
// query, lookups by id and pages without a list filter merged into one statement.

import { setImmediate } from 'node:timers';

const FIELDS = 'id, name, category_id, status';
const COLUMNS = `SELECT ${FIELDS} FROM pets`;
const MAX_MERGED = 100;

/** A read: `one` for a single read's values, `many` (optional) for every read's i-th values as `$i`. */
const PET_BY_ID = {
  one: { name: 'bench_pet_by_id', text: `${COLUMNS} WHERE id = $1` },
  many: {
    name: 'bench_pets_by_ids',
    text:
      'SELECT q.read_ordinal, p.id, p.name, p.category_id, p.status ' +
      'FROM unnest($1::bigint[]) WITH ORDINALITY AS q(id, read_ordinal) JOIN pets p ON p.id = q.id',
  },
};
const PAGE = {
  one: { name: 'bench_page', text: `${COLUMNS} WHERE id > $1 ORDER BY id LIMIT $2` },
  many: {
    name: 'bench_pages',
    text:
      'SELECT q.read_ordinal, p.* FROM unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS q(after_id, row_limit, read_ordinal) ' +
      `CROSS JOIN LATERAL (${COLUMNS} WHERE id > q.after_id ORDER BY id LIMIT q.row_limit) p ORDER BY q.read_ordinal, p.id`,
  },
};
const CATEGORY_PAGE = {
  one: { name: 'bench_category_page', text: `${COLUMNS} WHERE id > $1 AND category_id = $2 ORDER BY id LIMIT $3` },
  many: {
    name: 'bench_category_pages',
    text:
      'SELECT q.read_ordinal, p.* FROM unnest($1::bigint[], $2::bigint[], $3::int[]) ' +
      'WITH ORDINALITY AS q(after_id, category_id, row_limit, read_ordinal) ' +
      `CROSS JOIN LATERAL (${COLUMNS} WHERE (category_id, id) > (q.category_id, q.after_id) ` +
      'ORDER BY category_id, id LIMIT q.row_limit) p WHERE p.category_id = q.category_id ORDER BY q.read_ordinal, p.id',
  },
};

class Batches {
  constructor(pool) {
    this.pool = pool;
    this.turn = new Map();
    this.scheduled = false;
  }

  rows(read, values) {
    let reads = this.turn.get(read);
    if (!reads) this.turn.set(read, (reads = new Map()));
    const key = JSON.stringify(values); // numbers and strings only here
    let pending = reads.get(key);
    if (!pending) {
      pending = { values };
      pending.promise = new Promise((resolve, reject) => Object.assign(pending, { resolve, reject }));
      reads.set(key, pending);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return pending.promise;
  }

  flush() {
    const turn = this.turn;
    this.turn = new Map();
    this.scheduled = false;
    for (const [read, reads] of turn) {
      const all = [...reads.values()];
      for (let start = 0; start < all.length; start += MAX_MERGED) {
        const part = all.slice(start, start + MAX_MERGED);
        if (part.length === 1 || !read.many) for (const each of part) this.one(read.one ?? read, each);
        else this.merged(read.many, part);
      }
    }
  }

  one(statement, read) {
    this.pool.query({ ...statement, values: read.values }).then(({ rows }) => read.resolve(rows), read.reject);
  }

  merged(statement, reads) {
    const values = reads[0].values.map((_, i) => reads.map((read) => read.values[i]));
    this.pool.query({ ...statement, values }).then(
      ({ rows }) => {
        const answers = reads.map(() => []);
        for (const row of rows) answers[Number(row.read_ordinal) - 1].push(row);
        reads.forEach((read, i) => read.resolve(answers[i]));
      },
      (error) => reads.forEach((read) => read.reject(error)),
    );
  }
}

/** One statement per request, as `Batches` is asked (for BENCH_REFERENCE_READS=single). */
class Single {
  constructor(pool) {
    this.pool = pool;
  }

  async rows(read, values) {
    return (await this.pool.query({ ...(read.one ?? read), values })).rows;
  }
}

/**
 * The pet reads of the references: `byId(id)` is the pet's row or undefined; `page(q)`
 * the rows of a keyset page of `q.limit + 1` (to tell whether more exist), `q` as
 * `parseListQuery` gives it, with `statement(mask)` for the filters no merged read covers.
 */
export class PetReads {
  constructor(pool, statement, env = process.env) {
    this.batched = env.BENCH_REFERENCE_READS === 'batched';
    this.reads = this.batched ? new Batches(pool) : new Single(pool);
    this.statement = statement;
  }

  async byId(id) {
    return (await this.reads.rows(PET_BY_ID, [id]))[0];
  }

  async page(q, mask, values) {
    if (!this.batched) return this.reads.rows(this.statement(mask), values);
    const ids = q.ids && !q.statuses && q.categoryId === undefined && q.afterId === null ? [...new Set(q.ids)] : null;
    if (ids && ids.length <= q.limit) {
      // Every one of those pets, by id: each looked up with the other reads of its turn.
      const found = await Promise.all(ids.map((id) => this.reads.rows(PET_BY_ID, [id])));
      return found.flat().sort((a, b) => Number(a.id) - Number(b.id));
    }
    if (!q.ids && !q.statuses) {
      const after = q.afterId ?? 0;
      return q.categoryId === undefined
        ? this.reads.rows(PAGE, [after, q.limit + 1])
        : this.reads.rows(CATEGORY_PAGE, [after, q.categoryId, q.limit + 1]);
    }
    return this.reads.rows(this.statement(mask), values);
  }
}
