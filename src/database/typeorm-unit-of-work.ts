import { Inject, Injectable } from '@nestjs/common';
import { OverloadedError } from '@petstore/errors';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { DOMAIN_EVENTS, type DomainEventBus } from '../shared/domain-events/domain-events.js';
import { KeyedConcurrencyLimit, KeyQueueFullError } from '../shared/concurrency/keyed-concurrency-limit.js';
import type { RunOptions, Transaction, UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';
import { TypeOrmTransaction } from './typeorm-transaction.js';

/**
 * Units of work on one row (`RunOptions.turnsOf`) this process runs at once; the
 * next wait here, in arrival order. PostgreSQL serializes them on the row lock
 * anyway, and wakes every transaction waiting for a row lock at each commit, to
 * find all but one waiting again: with the whole pool queued on a hot pet's line,
 * that herd cost PostgreSQL more than the orders themselves. Two keep the next
 * transaction waiting at the lock when the current one commits.
 */
export const TURNS_AT_ONCE = 2;
/** Beyond this many waiting for one row, a request is shed (503 `OVERLOADED`) rather than queued. */
export const TURNS_WAITING = 1_000;

/**
 * One PostgreSQL transaction per use case, on one connection of the pool. The
 * events the use case recorded are handed to their subscribers before the commit,
 * in the same transaction; the statements they defer to the commit (`runAtCommit`)
 * go with COMMIT in one round trip, and BEGIN goes with the first statement.
 */
@Injectable()
export class TypeOrmUnitOfWork implements UnitOfWork {
  private readonly turns = new KeyedConcurrencyLimit<string>(TURNS_AT_ONCE, TURNS_WAITING);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(DOMAIN_EVENTS) private readonly events: DomainEventBus,
  ) {}

  async run<T>(work: (tx: Transaction) => Promise<T>, options?: RunOptions): Promise<T> {
    const row = options?.turnsOf;
    if (row === undefined) return this.transaction(work);
    try {
      return await this.turns.run(row, () => this.transaction(work));
    } catch (error) {
      if (error instanceof KeyQueueFullError) throw new OverloadedError(`too many requests wait for ${row}`);
      throw error;
    }
  }

  private async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
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
