import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEventBus } from '../shared/domain-events/domain-events.js';
import type { Transaction, UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';
import { TransactionTurns } from '../platform/transaction-turns.js';
import { TypeOrmTransaction } from './typeorm-transaction.js';
import { DATABASE_LIMITS } from './data-source-options.js';

/**
 * Units of work of this process in a transaction at once (`TransactionTurns`);
 * the next wait their turn without a connection. Measured on the orders bench
 * (one hot pet): with the whole pool in transactions, 0.70–0.85× the orders/s of
 * a limit per inventory line; 2 or 4 at once, 0.99–1.18× of it. Four leave the
 * other six connections of the pool to reads outside transactions.
 */
export const TRANSACTIONS_AT_ONCE = 4;
/** Beyond this many waiting for a turn, a unit of work is shed (503 `OVERLOADED`) rather than queued. */
export const TRANSACTIONS_WAITING = 1_000;

/**
 * One TypeORM transaction per use case (`dataSource.transaction`: BEGIN, the
 * work, COMMIT; ROLLBACK when anything throws), a few at once (`TransactionTurns`).
 * The events the use case recorded are handed to their subscribers before the
 * commit, in the same transaction.
 */
@Injectable()
export class TypeOrmUnitOfWork implements UnitOfWork {
  private readonly turns = new TransactionTurns(
    TRANSACTIONS_AT_ONCE,
    TRANSACTIONS_WAITING,
    DATABASE_LIMITS.POOL_WAIT_MS,
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEventBus,
  ) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.turns.run(() =>
      this.dataSource.transaction(async (manager) => {
        const tx = new TypeOrmTransaction(manager);
        const result = await work(tx);
        if (!this.events.empty) await this.events.dispatch(tx.events, tx);
        return result;
      }),
    );
  }
}
