import type { EntityManager } from 'typeorm';
import { RecordedEvents } from '../shared/domain-events/domain-events.js';
import type { DomainEvent } from '../shared/domain-events/domain-event.js';
import type { Transaction } from '../shared/unit-of-work/unit-of-work.js';

/** A PostgreSQL transaction through TypeORM: its EntityManager, savepoints, and the events recorded in it. */
export class TypeOrmTransaction implements Transaction {
  readonly events = new RecordedEvents();
  private savepoints = 0;

  constructor(readonly manager: EntityManager) {}

  record(event: DomainEvent): void {
    this.events.record(event);
  }

  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepoints}`;
    const mark = this.events.mark();
    await this.manager.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await this.manager.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await this.manager.query(`ROLLBACK TO SAVEPOINT ${name}`);
      this.events.rollbackTo(mark);
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
