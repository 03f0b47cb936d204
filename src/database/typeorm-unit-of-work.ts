import { Inject, Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { DOMAIN_EVENTS, type DomainEventBus } from '../shared/domain-events/domain-events.js';
import type { Transaction, UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';
import { TypeOrmTransaction } from './typeorm-transaction.js';

/**
 * One PostgreSQL transaction per use case, on one connection of the pool. The
 * events the use case recorded are handed to their subscribers before the commit,
 * in the same transaction; the statements they defer to the commit (`runAtCommit`)
 * go with COMMIT in one round trip, and BEGIN goes with the first statement.
 */
@Injectable()
export class TypeOrmUnitOfWork implements UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(DOMAIN_EVENTS) private readonly events: DomainEventBus,
  ) {}

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const tx = new TypeOrmTransaction(runner, (await runner.connect()) as pg.PoolClient);
      try {
        const result = await work(tx);
        if (!this.events.empty) await this.events.dispatch(tx.events, tx);
        await tx.commit();
        return result;
      } catch (error) {
        // A failed statement, or a COMMIT that failed, or a connection that broke.
        await tx.rollback().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }
}
