import type { EntityManager } from 'typeorm';
import { RecordedEvents } from '../shared/domain-events/domain-events.js';
import type { DomainEvent } from '../shared/domain-events/domain-event.js';
import type { Transaction } from '../shared/unit-of-work/unit-of-work.js';

/** A PostgreSQL transaction through TypeORM: its EntityManager, savepoints, and the events recorded in it. */
export class TypeOrmTransaction implements Transaction {
  readonly events = new RecordedEvents();
  /** Statements (values inlined) the unit of work sends with COMMIT, in one round trip. */
  readonly atCommit: string[] = [];
  private savepoints = 0;

  constructor(readonly manager: EntityManager) {}

  record(event: DomainEvent): void {
    this.events.record(event);
  }

  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepoints}`;
    const mark = this.events.mark();
    const deferred = this.atCommit.length;
    await this.manager.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await this.manager.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await this.manager.query(`ROLLBACK TO SAVEPOINT ${name}`);
      this.events.rollbackTo(mark);
      this.atCommit.length = deferred;
      throw error;
    }
  }
}

/**
 * The EntityManager an adapter runs a statement with: the transaction's when it is
 * given one, else its own (outside any unit of work). How each module's adapter
 * finds the current transaction, without the unit of work knowing the module.
 */
export function managerOf(tx: Transaction | undefined, own: EntityManager): EntityManager {
  if (tx === undefined) return own;
  if (tx instanceof TypeOrmTransaction) return tx.manager;
  throw new TypeError('A TypeORM repository was given a transaction of another unit of work');
}

/**
 * Has `sql` (a complete statement, its values inlined as escaped literals) run
 * in `tx` just before its COMMIT, in the same round trip: for a write that must
 * be in the transaction but that nothing in it reads (the outbox), so that the
 * locks the transaction holds are not kept for one more round trip.
 */
export function runAtCommit(tx: Transaction, sql: string): void {
  if (!(tx instanceof TypeOrmTransaction)) {
    throw new TypeError('A TypeORM repository was given a transaction of another unit of work');
  }
  tx.atCommit.push(sql);
}
