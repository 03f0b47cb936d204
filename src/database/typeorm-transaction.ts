import type pg from 'pg';
import type { EntityManager, QueryRunner } from 'typeorm';
import { RecordedEvents } from '../shared/domain-events/domain-events.js';
import type { DomainEvent } from '../shared/domain-events/domain-event.js';
import type { Transaction } from '../shared/unit-of-work/unit-of-work.js';
import { Pipeline, type Step } from './pipeline.js';
import type { Statement } from './prepared-sql.js';

/**
 * A PostgreSQL transaction on one pooled connection: TypeORM's EntityManager over
 * it for the adapters that use TypeORM, named prepared statements for the hot
 * paths, savepoints, and the events recorded in it.
 *
 * BEGIN is not a round trip of its own: it goes with the transaction's first
 * statement (or with its COMMIT, when nothing ran before). A store use case is
 * then two round trips, its statement and its COMMIT, where it was three.
 */
export class TypeOrmTransaction implements Transaction {
  readonly events = new RecordedEvents();
  /** Statements sent with COMMIT, in one round trip. */
  private readonly atCommit: Step[] = [];
  private savepoints = 0;
  private begun = false;

  constructor(
    private readonly runner: QueryRunner,
    private readonly client: pg.PoolClient,
  ) {}

  /** TypeORM's EntityManager in this transaction (BEGIN sent first when nothing has run yet). */
  async manager(): Promise<EntityManager> {
    if (!this.begun) {
      this.markBegun();
      await this.client.query('BEGIN');
    }
    return this.runner.manager;
  }

  /**
   * Runs `statement` as a named prepared statement in the transaction. As the
   * transaction's first statement it goes with BEGIN, in one round trip.
   */
  async rows<Row extends pg.QueryResultRow>(statement: Statement, values: readonly unknown[]): Promise<Row[]> {
    const step = { statement, values };
    if (this.begun) return (await Pipeline.run(this.client, [step]))[0] as Row[];
    this.markBegun();
    return (await Pipeline.run(this.client, ['BEGIN', step]))[1] as Row[];
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
    await this.simple(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await this.simple(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await this.simple(`ROLLBACK TO SAVEPOINT ${name}`);
      this.events.rollbackTo(mark);
      this.atCommit.length = deferred;
      throw error;
    }
  }

  /** The deferred statements and COMMIT, in one round trip; nothing at all for a transaction that never wrote. */
  async commit(): Promise<void> {
    if (!this.begun && this.atCommit.length === 0) return;
    const opening = this.begun ? [] : ['BEGIN'];
    this.markBegun();
    // The pipeline stops at the first error, which leaves the transaction aborted: the caller rolls it back.
    await Pipeline.run(this.client, [...opening, ...this.atCommit, 'COMMIT']);
  }

  /**
   * After a failure: ROLLBACK if BEGIN was sent (after a failed COMMIT PostgreSQL
   * has already ended the transaction, and this is a no-op).
   */
  async rollback(): Promise<void> {
    if (this.begun) await this.client.query('ROLLBACK');
  }

  /** A statement without values, opening the transaction with it (one simple query) if nothing ran before. */
  private async simple(sql: string): Promise<void> {
    const text = this.begun ? sql : `BEGIN;\n${sql}`;
    this.markBegun();
    await this.client.query(text);
  }

  /** Marked before the statement is sent: whatever it does, the connection may be in a transaction now. */
  private markBegun(): void {
    this.begun = true;
    // TypeORM's own operations (save, remove) then run in this transaction rather than opening one.
    (this.runner as { isTransactionActive: boolean }).isTransactionActive = true;
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
 * Has `statement` run with `values` in `tx` just before its COMMIT, in the same
 * round trip: for a write that must be in the transaction but that nothing in it
 * reads (the outbox), so that the locks the transaction holds are not kept for
 * one more round trip.
 */
export function runAtCommit(tx: Transaction, statement: Statement, values: readonly unknown[]): void {
  inTypeOrm(tx).runAtCommit(statement, values);
}
