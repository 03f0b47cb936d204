import type { StockRepository } from '../../inventory/domain/stock.repository.js';
import type { IdempotencyRepository } from '../../orders/domain/idempotency.js';
import type { OrderRepository } from '../../orders/domain/order.repository.js';
import type { PetRepository } from '../../pets/domain/pet.repository.js';

/** Repositories bound to one transaction. */
export interface Transaction {
  readonly pets: PetRepository;
  readonly stock: StockRepository;
  readonly orders: OrderRepository;
  readonly idempotency: IdempotencyRepository;
  /** Runs `work` so that, if it throws, only its own writes are undone and the transaction goes on. */
  savepoint<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Port: one use case, one transaction. Everything `work` writes through the given
 * repositories commits together, or nothing does.
 */
export interface UnitOfWork {
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

export const UNIT_OF_WORK = Symbol('UnitOfWork');
