import { Inject, Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { DOMAIN_EVENTS, type DomainEventBus } from '../shared/domain-events/domain-events.js';
import type { Transaction, UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';
import { TypeOrmTransaction } from './typeorm-transaction.js';

/**
 * One PostgreSQL transaction per use case. The events the use case recorded are
 * handed to their subscribers before the commit, in the same transaction; the
 * statements they defer to the commit (`runAtCommit`) go with COMMIT in one round
 * trip.
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
      await runner.startTransaction();
      const tx = new TypeOrmTransaction(runner.manager);
      const result = await work(tx);
      if (!this.events.empty) await this.events.dispatch(tx.events, tx);
      await commit(runner, tx.atCommit);
      return result;
    } catch (error) {
      // A failed statement, or a COMMIT that failed (PostgreSQL has then ended the
      // transaction: the ROLLBACK is a no-op), or a connection that broke.
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}

/** COMMIT, after the deferred statements in the same simple-protocol query when there are any. */
async function commit(runner: QueryRunner, deferred: readonly string[]): Promise<void> {
  if (deferred.length === 0) return runner.commitTransaction();
  const client = (await runner.connect()) as pg.PoolClient;
  // Statements of one simple query run in order and stop at the first error, which
  // leaves the transaction aborted: the caller rolls it back.
  // The runner still counts the transaction as open: it is released right after.
  await client.query(`${deferred.join(';\n')};\nCOMMIT`);
}
