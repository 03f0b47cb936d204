import type { EntityManager } from 'typeorm';
import { RecordedEvents } from '../shared/domain-events/domain-events.js';
import type { DomainEvent } from '../shared/domain-events/domain-event.js';
import type { Transaction } from '../shared/unit-of-work/unit-of-work.js';

/**
 * A TypeORM transaction (`dataSource.transaction`) as the application sees it: the
 * EntityManager bound to its connection, savepoints as plain `SAVEPOINT`
 * statements, and the events recorded in it.
 */
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
 * The EntityManager of `tx`, bound to the transaction's connection: adapters write
 * `managerOf(tx).getRepository(Entity)…` or `managerOf(tx).query(sql, params)`.
 */
export function managerOf(tx: Transaction): EntityManager {
  if (tx instanceof TypeOrmTransaction) return tx.manager;
  throw new TypeError('A TypeORM repository was given a transaction of another unit of work');
}
