import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DOMAIN_EVENTS, type DomainEventBus } from '../shared/domain-events/domain-events.js';
import type { Transaction, UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';
import { TypeOrmTransaction } from './typeorm-transaction.js';

/**
 * One TypeORM transaction per use case (`dataSource.transaction`: BEGIN, the
 * work, COMMIT; ROLLBACK when anything throws). The events the use case recorded
 * are handed to their subscribers before the commit, in the same transaction.
 */
@Injectable()
export class TypeOrmUnitOfWork implements UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(DOMAIN_EVENTS) private readonly events: DomainEventBus,
  ) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const tx = new TypeOrmTransaction(manager);
      const result = await work(tx);
      if (!this.events.empty) await this.events.dispatch(tx.events, tx);
      return result;
    });
  }
}
