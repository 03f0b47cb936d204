import type { Statement } from './prepared-sql.js';

/** A row as pg returns it: column name to value. */
export type Row = Record<string, unknown>;

/** Runs one statement with its values on the pool. */
export type RunStatement = (statement: Statement, values: readonly unknown[]) => Promise<readonly Row[]>;

/** Calls `flush` once the current turn of the event loop has handled its I/O (setImmediate). */
export type Defer = (flush: () => void) => void;

/**
 * Rows looked up one key at a time, which may also be asked for many keys at once:
 * `one` takes the key as `$1`, `many` an array of keys as `$1` (`= ANY($1)`), and
 * `key` is the column whose value (as text) is the key of each row.
 */
export interface KeyedLookup {
  readonly one: Statement;
  readonly many: Statement;
  readonly key: string;
}

interface Waiter<T> {
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

interface SharedRead {
  readonly statement: Statement;
  readonly values: readonly unknown[];
  readonly promise: Promise<readonly Row[]>;
  readonly waiter: Waiter<readonly Row[]>;
}

/** What one turn asked of one lookup: each key once, with everyone waiting for its row. */
type KeyWaiters = Map<string, Waiter<Row | undefined>[]>;

function settable<T>(): { promise: Promise<T>; waiter: Waiter<T> } {
  let waiter: Waiter<T> | undefined;
  const promise = new Promise<T>((resolve, reject) => (waiter = { resolve, reject }));
  return { promise, waiter: waiter as Waiter<T> };
}

/**
 * Reads outside transactions, gathered over one turn of the event loop and sent
 * when it has handled its I/O: under load a turn parses many requests, and each
 * round trip to PostgreSQL costs far more CPU (system calls on both sides, the
 * driver, a backend's wake-up) than the lookup it carries.
 * - Identical reads of a turn (the same statement and values) share one query and
 *   its rows: the rows are read-only for everyone.
 * - Lookups of a turn by key (`lookup`) become one query for all their keys.
 *
 * A read never joins a query already sent: it waits for the next one, so it sees
 * every write committed before it was asked (a client's read after its own write
 * sees that write). A failed query fails exactly the reads it carried.
 */
export class ReadBatches {
  private shared = new Map<string, SharedRead>();
  private lookups = new Map<KeyedLookup, KeyWaiters>();
  private scheduled = false;

  constructor(
    private readonly run: RunStatement,
    private readonly defer: Defer = setImmediate,
  ) {}

  /** The rows of `statement` with `values`, shared with identical reads of this turn. */
  rows(statement: Statement, values: readonly unknown[]): Promise<readonly Row[]> {
    const id = `${statement.name}\u0000${JSON.stringify(values)}`;
    const pending = this.shared.get(id);
    if (pending) return pending.promise;
    const { promise, waiter } = settable<readonly Row[]>();
    this.shared.set(id, { statement, values, promise, waiter });
    this.schedule();
    return promise;
  }

  /** The row of `lookup` whose key is `key` (undefined when there is none), asked with this turn's other keys. */
  lookup(lookup: KeyedLookup, key: string): Promise<Row | undefined> {
    let keys = this.lookups.get(lookup);
    if (!keys) this.lookups.set(lookup, (keys = new Map()));
    const { promise, waiter } = settable<Row | undefined>();
    const waiters = keys.get(key);
    if (waiters) waiters.push(waiter);
    else keys.set(key, [waiter]);
    this.schedule();
    return promise;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.defer(() => this.flush());
  }

  private flush(): void {
    const shared = this.shared;
    const lookups = this.lookups;
    this.shared = new Map();
    this.lookups = new Map();
    this.scheduled = false;
    for (const read of shared.values()) {
      this.send(read.statement, read.values).then(read.waiter.resolve, read.waiter.reject);
    }
    for (const [lookup, keys] of lookups) this.sendLookup(lookup, keys);
  }

  private sendLookup(lookup: KeyedLookup, keys: KeyWaiters): void {
    const asked = [...keys.keys()];
    const rows = asked.length === 1 ? this.send(lookup.one, asked) : this.send(lookup.many, [asked]);
    rows.then(
      (found) => {
        const byKey = new Map<string, Row>();
        for (const row of found) byKey.set(String(row[lookup.key]), row);
        for (const [key, waiters] of keys) for (const waiter of waiters) waiter.resolve(byKey.get(key));
      },
      (error: unknown) => {
        for (const waiters of keys.values()) for (const waiter of waiters) waiter.reject(error);
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
