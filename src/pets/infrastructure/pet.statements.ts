import type { Statement } from '../../database/prepared-sql.js';
import { type MergeableRead, READ_ORDINAL } from '../../database/read-batches.js';
import type { PetFilter } from '../domain/pet.repository.js';

/** A pets row as the statements below return it (int8 as a string, as pg gives it). */
export interface PetRow {
  readonly id: string;
  readonly name: string;
  readonly category_id: string;
  readonly status: 'available' | 'pending' | 'sold';
}

const FIELDS = 'id, name, category_id, status';
const COLUMNS = `SELECT ${FIELDS} FROM pets`;

/** A pet by id; reads of one turn go out as one query (`ReadBatches`). */
export const PET_BY_ID: MergeableRead = {
  one: { name: 'pets_by_id', text: `${COLUMNS} WHERE id = $1` },
  many: {
    name: 'pets_by_ids',
    text:
      `SELECT q.${READ_ORDINAL}, p.${FIELDS.replaceAll(', ', ', p.')} ` +
      `FROM unnest($1::bigint[]) WITH ORDINALITY AS q(id, ${READ_ORDINAL}) JOIN pets p ON p.id = q.id`,
  },
};

const pageReads = new Map<number, Statement | MergeableRead>();

/**
 * The keyset page query for the filters present: one named statement per
 * combination (at most eight), so each gets a plan that uses its index
 * (`IDX_pets_status`, `IDX_pets_category_id`, the primary key) instead of one
 * generic plan with optional conditions. Parameters: after id (0 for the first
 * page), then each present filter in the order statuses, category, ids, then the limit.
 * Without a list filter (statuses, ids), pages asked in one turn go out as one query.
 */
export function petPageRead(filter: PetFilter): Statement | MergeableRead {
  const statuses = Boolean(filter.statuses?.length);
  const category = filter.categoryId !== undefined;
  const ids = Boolean(filter.ids?.length);
  const key = (statuses ? 1 : 0) | (category ? 2 : 0) | (ids ? 4 : 0);
  let read = pageReads.get(key);
  if (!read) {
    const conditions = ['id > $1'];
    if (statuses) conditions.push(`status = ANY($${conditions.length + 1}::pet_status[])`);
    if (category) conditions.push(`category_id = $${conditions.length + 1}`);
    if (ids) conditions.push(`id = ANY($${conditions.length + 1}::bigint[])`);
    const text = `${COLUMNS} WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT $${conditions.length + 1}`;
    const one: Statement = { name: `pets_page_${key}`, text };
    read = statuses || ids ? one : { one, many: { name: `pets_pages_${key}`, text: pagesText(category) } };
    pageReads.set(key, read);
  }
  return read;
}

/**
 * Many pages at once, without a filter or by category: each read's after id,
 * category and limit unnested side by side, each page from a `LATERAL` subquery.
 * By category, the subquery walks `IDX_pets_category_id` from `(category, after id)`
 * for `limit` entries, and the rows of a later category (when the category ends
 * within the page) are dropped: PostgreSQL plans the statement once for any
 * category, and with `category_id = … AND id > …` it walks the primary key and
 * filters, or starts the category's index at the category's first pet.
 */
function pagesText(category: boolean): string {
  const unnest = category
    ? `unnest($1::bigint[], $2::bigint[], $3::int[]) WITH ORDINALITY AS q(after_id, category_id, row_limit, ${READ_ORDINAL})`
    : `unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS q(after_id, row_limit, ${READ_ORDINAL})`;
  const page = category
    ? `${COLUMNS} WHERE (category_id, id) > (q.category_id, q.after_id) ORDER BY category_id, id LIMIT q.row_limit`
    : `${COLUMNS} WHERE id > q.after_id ORDER BY id LIMIT q.row_limit`;
  const sameCategory = category ? ' WHERE p.category_id = q.category_id' : '';
  return (
    `SELECT q.${READ_ORDINAL}, p.* FROM ${unnest} CROSS JOIN LATERAL (${page}) p${sameCategory} ` +
    `ORDER BY q.${READ_ORDINAL}, p.id`
  );
}

/** The values of {@link petPageRead}'s statement, in its order. */
export function petPageValues(filter: PetFilter, afterId: number | null, rows: number): unknown[] {
  const values: unknown[] = [afterId ?? 0];
  if (filter.statuses?.length) values.push(filter.statuses);
  if (filter.categoryId !== undefined) values.push(filter.categoryId);
  if (filter.ids?.length) values.push(filter.ids);
  values.push(rows);
  return values;
}
