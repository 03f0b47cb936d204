import type { Statement } from './prepared-sql.js';

/** A row as pg returns it: column name to value. */
export type Row = Record<string, unknown>;

/** Runs one statement with its values on the pool. */
export type RunStatement = (statement: Statement, values: readonly unknown[]) => Promise<readonly Row[]>;

/** Calls `flush` once the current turn of the event loop has handled its I/O (setImmediate). */
export type Defer = (flush: () => void) => void;

/**
 * The most reads one merged query carries: a turn with more sends several, which
 * spread over the pool, and none grows into a statement that could run into the
 * statement timeout for reads that would each have been quick.
 */
export const MAX_MERGED = 100;

/** The column of a merged statement's rows that says which read (1-based, in the order of the arrays) a row answers. */
export const READ_ORDINAL = 'read_ordinal';

/**
 * A read that can be asked for many value lists at once: `one` takes one read's
 * values; `many` takes, as `$i`, the array of every read's `i`-th value, and
 * returns each row with `read_ordinal` (`unnest(…) WITH ORDINALITY`), the rows of
 * one read in the order `one` would return them.
 */
export interface MergeableRead {
  readonly one: Statement;
  readonly many: Statement;
}

interface Waiter {
  readonly resolve: (rows: readonly Row[]) => void;
  readonly reject: (error: unknown) => void;
}

/** One distinct read of a turn, and everyone waiting for it. */
interface Asked {
  readonly values: readonly unknown[];
  readonly promise: Promise<readonly Row[]>;
  readonly waiter: Waiter;
}

/** What a turn asked of one statement (or mergeable read): its distinct value lists. */
type Reads = Map<string, Asked>;

/** Whether pg sends `value` as JSON would write it, so that equal JSON means an equal read. */
function plain(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value); // NaN and Infinity would read as null
  return Array.isArray(value) && value.every(plain);
}

/** What identical reads share: their values as JSON; undefined (never shared) for values JSON would blur (dates, bigints). */
function sharedKey(values: readonly unknown[]): string | undefined {
  return values.every(plain) ? JSON.stringify(values) : undefined;
}

function asked(values: readonly unknown[]): Asked {
  let waiter: Waiter | undefined;
  const promise = new Promise<readonly Row[]>((resolve, reject) => (waiter = { resolve, reject }));
  return { values, promise, waiter: waiter as Waiter };
}

/**
 * Reads outside transactions, gathered over one turn of the event loop and sent
 * when it has handled its I/O: under load a turn parses many requests, and a
 * round trip to PostgreSQL costs far more CPU (system calls on both sides, the
 * driver, a backend's wake-up) than the few rows it carries.
 * - Identical reads of a turn (the same statement and values) share one query and
 *   its rows, which are read-only for everyone.
 * - Reads of a turn of one `MergeableRead` go out as one query for all of them.
 *
 * A read never joins a query already sent: it waits for the next one, so it sees
 * every write committed before it was asked (a client's read after its own write
 * sees that write). A failed query fails exactly the reads it carried.
 */
export class ReadBatches {
  private turn = new Map<Statement | MergeableRead, Reads>();
  private scheduled = false;
  private unshared = 0;

  constructor(
    private readonly run: RunStatement,
    private readonly defer: Defer = setImmediate,
  ) {}

  /** The rows of `read` (a statement, or a read that can be merged with others) with `values`. */
  rows(read: Statement | MergeableRead, values: readonly unknown[]): Promise<readonly Row[]> {
    let reads = this.turn.get(read);
    if (!reads) this.turn.set(read, (reads = new Map()));
    const key = sharedKey(values) ?? `unshared ${this.unshared++}`;
    let pending = reads.get(key);
    if (!pending) reads.set(key, (pending = asked(values)));
    if (!this.scheduled) {
      this.scheduled = true;
      this.defer(() => this.flush());
    }
    return pending.promise;
  }

  private flush(): void {
    const turn = this.turn;
    this.turn = new Map();
    this.scheduled = false;
    for (const [read, reads] of turn) {
      if (!('many' in read)) {
        for (const each of reads.values()) this.sendOne(read, each);
        continue;
      }
      const all = [...reads.values()];
      for (let start = 0; start < all.length; start += MAX_MERGED) {
        const part = all.slice(start, start + MAX_MERGED);
        if (part.length === 1) this.sendOne(read.one, part[0]);
        else this.sendMerged(read, part);
      }
    }
  }

  private sendOne(statement: Statement, read: Asked): void {
    this.send(statement, read.values).then(read.waiter.resolve, read.waiter.reject);
  }

  private sendMerged(read: MergeableRead, reads: readonly Asked[]): void {
    const columns = reads[0].values.map((_, i) => reads.map((each) => each.values[i]));
    this.send(read.many, columns).then(
      (rows) => {
        const answers = reads.map((): Row[] => []);
        for (const row of rows) answers[Number(row[READ_ORDINAL]) - 1]?.push(row);
        reads.forEach((each, i) => each.waiter.resolve(answers[i]));
      },
      (error: unknown) => {
        for (const each of reads) each.waiter.reject(error);
      },
    );
  }

  /** `run`, with a synchronous throw turned into a rejection. */
  private send(statement: Statement, values: readonly unknown[]): Promise<readonly Row[]> {
    try {
      return this.run(statement, values);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
