import type { Transaction, UnitOfWork } from '../../src/shared/unit-of-work/unit-of-work.js';
import { InMemoryIdempotencyRepository } from './in-memory-idempotency.repository.js';
import { InMemoryOrderRepository } from './in-memory-order.repository.js';
import { InMemoryPetRepository } from './in-memory-pet.repository.js';
import { InMemoryStockRepository } from './in-memory-stock.repository.js';
import type { InMemoryTables } from './in-memory-tables.js';

/** The repositories a transaction hands out (everything but `savepoint`). */
export type TransactionRepositories = Omit<Transaction, 'savepoint'>;

/**
 * A faithful in-memory `UnitOfWork`: transactions run one at a time (the strictest
 * isolation, standing in for the row locks of the real one), and a transaction
 * whose work throws leaves the tables as they were, as does a failed savepoint
 * for its own writes. Counts commits and rollbacks for assertions.
 *
 * Transactions hand out `repositories` (by default fresh ones over `tables`);
 * `createInMemoryDatabase` passes its own, so a test that replaces a method of one
 * of them (to make a write fail, say) sees the replacement inside transactions too.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  commits = 0;
  rollbacks = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly tables: InMemoryTables,
    private readonly repositories: TransactionRepositories = {
      pets: new InMemoryPetRepository(tables),
      stock: new InMemoryStockRepository(tables),
      orders: new InMemoryOrderRepository(tables),
      idempotency: new InMemoryIdempotencyRepository(tables),
    },
  ) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.transaction(work));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const rollback = this.tables.snapshot();
    try {
      const result = await work(this.bind());
      this.commits++;
      return result;
    } catch (error) {
      rollback();
      this.rollbacks++;
      throw error;
    }
  }

  private bind(): Transaction {
    const tables = this.tables;
    return {
      ...this.repositories,
      async savepoint<T>(work: () => Promise<T>): Promise<T> {
        const rollback = tables.snapshot();
        try {
          return await work();
        } catch (error) {
          rollback();
          throw error;
        }
      },
    };
  }
}
