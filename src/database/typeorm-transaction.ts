import type pg from 'pg';
import type { EntityManager, QueryRunner } from 'typeorm';
import { RecordedEvents } from '../shared/domain-events/domain-events.js';
import type { DomainEvent } from '../shared/domain-events/domain-event.js';
import type { Transaction } from '../shared/unit-of-work/unit-of-work.js';
import { Pipeline, type PreparedStep } from './pipeline.js';
import type { Statement } from './prepared-sql.js';

/**
 * A PostgreSQL transaction on one pooled connection: TypeORM's EntityManager over
 * it for the adapters that use TypeORM, named prepared statements for the hot
 * paths, savepoints, and the events recorded in it.
 *
 * Statements that answer nothing the use case reads (BEGIN, SAVEPOINT, RELEASE,
 * ROLLBACK TO, and the writes deferred to the commit) are not round trips of their
 * own: they go with the next statement, or with the COMMIT. A store use case is
 * then two round trips, its statement and its COMMIT, and an idempotent order
 * three (the key's claim, the placing, the outcome's record with the COMMIT), with
 * the pet's line locked for the last one alone.
 */
export class TypeOrmTransaction implements Transaction {
  readonly events = new RecordedEvents();
  /** Statements without values that go out in order before the next statement (BEGIN first). */
  private pending: string[] = ['BEGIN'];
  /** Statements sent with COMMIT, in one round trip. */
  private readonly atCommit: PreparedStep[] = [];
  private savepoints = 0;
  /** Whether BEGIN has been sent: the connection may be in a transaction. */
  private begun = false;

  constructor(
    private readonly runner: QueryRunner,
    private readonly client: pg.PoolClient,
  ) {}

  /** TypeORM's EntityManager in this transaction (what is pending sent first, in a round trip of its own). */
  async manager(): Promise<EntityManager> {
    if (this.pending.length > 0) await this.client.query(this.takePending().join(';\n'));
    return this.runner.manager;
  }

  /** Runs `statement` as a named prepared statement in the transaction, in one round trip with what is pending. */
  async rows<Row extends pg.QueryResultRow>(statement: Statement, values: readonly unknown[]): Promise<Row[]> {
    const [rows] = await this.stepRows([{ statement, values }]);
    return rows as Row[];
  }

  /** Runs `steps` (named prepared statements) in order in one round trip with what is pending: each one's rows. */
  async stepRows(steps: readonly PreparedStep[]): Promise<pg.QueryResultRow[][]> {
    const pending = this.takePending();
    return (await Pipeline.run(this.client, [...pending, ...steps])).slice(pending.length);
  }

  record(event: DomainEvent): void {
    this.events.record(event);
  }

  /** Has `statement` run with `values` just before COMMIT, in its round trip. */
  runAtCommit(statement: Statement, values: readonly unknown[]): void {
    this.atCommit.push({ statement, values });
  }

  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepoints}`;
    const mark = this.events.mark();
    const deferred = this.atCommit.length;
    this.pending.push(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      this.endSavepoint(name, `RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      this.endSavepoint(name, `ROLLBACK TO SAVEPOINT ${name}`);
      this.events.rollbackTo(mark);
      this.atCommit.length = deferred;
      throw error;
    }
  }

  /** What is pending, the deferred statements and COMMIT, in one round trip; nothing at all for a transaction that never wrote. */
  async commit(): Promise<void> {
    if (!this.begun && this.atCommit.length === 0) return;
    // The pipeline stops at the first error, which leaves the transaction aborted: the caller rolls it back.
    await Pipeline.run(this.client, [...this.takePending(), ...this.atCommit, 'COMMIT']);
  }

  /**
   * After a failure: ROLLBACK if BEGIN was sent (after a failed COMMIT PostgreSQL
   * has already ended the transaction, and this is a no-op).
   */
  async rollback(): Promise<void> {
    this.pending = [];
    if (this.begun) await this.client.query('ROLLBACK');
  }

  /**
   * Ends savepoint `name` with `statement` (RELEASE or ROLLBACK TO), which goes with
   * the next round trip; or drops both when nothing was sent since the savepoint
   * began: there is nothing in it to keep or undo.
   */
  private endSavepoint(name: string, statement: string): void {
    if (this.pending[this.pending.length - 1] === `SAVEPOINT ${name}`) this.pending.pop();
    else this.pending.push(statement);
  }

  /** The pending statements, to be sent now: from here on the connection may be in a transaction. */
  private takePending(): string[] {
    const taken = this.pending;
    if (taken.length === 0) return taken;
    this.pending = [];
    if (!this.begun) {
      this.begun = true;
      // TypeORM's own operations (save, remove) then run in this transaction rather than opening one.
      (this.runner as { isTransactionActive: boolean }).isTransactionActive = true;
    }
    return taken;
  }
}

const inTypeOrm = (tx: Transaction): TypeOrmTransaction => {
  if (tx instanceof TypeOrmTransaction) return tx;
  throw new TypeError('A TypeORM repository was given a transaction of another unit of work');
};

/**
 * The EntityManager an adapter runs a statement with: the transaction's when it is
 * given one, else its own (outside any unit of work). How each module's adapter
 * finds the current transaction, without the unit of work knowing the module.
 */
export function managerOf(tx: Transaction | undefined, own: EntityManager): Promise<EntityManager> {
  return tx === undefined ? Promise.resolve(own) : inTypeOrm(tx).manager();
}

/** Runs a named prepared statement in `tx` (see `TypeOrmTransaction.rows`): for write paths that must be short under a lock. */
export function preparedRowsIn<Row extends pg.QueryResultRow>(
  tx: Transaction,
  statement: Statement,
  values: readonly unknown[],
): Promise<Row[]> {
  return inTypeOrm(tx).rows<Row>(statement, values);
}

/**
 * Runs `steps` (named prepared statements) in `tx`, in order, in one round trip:
 * each one's rows. Each is a statement of its own, so a step that follows a lock
 * reads with a snapshot taken once the lock is granted.
 */
export function preparedStepsIn(tx: Transaction, steps: readonly PreparedStep[]): Promise<pg.QueryResultRow[][]> {
  return inTypeOrm(tx).stepRows(steps);
}

/**
 * Has `statement` run with `values` in `tx` just before its COMMIT, in the same
 * round trip: for a write that must be in the transaction but that nothing in it
 * reads (the outbox), so that the locks the transaction holds are not kept for
 * one more round trip.
 */
export function runAtCommit(tx: Transaction, statement: Statement, values: readonly unknown[]): void {
  inTypeOrm(tx).runAtCommit(statement, values);
}
