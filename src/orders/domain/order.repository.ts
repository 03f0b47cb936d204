import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { NewOrder, Order } from './order.js';

export interface OrderFilter {
  readonly petId?: number;
  readonly complete?: boolean;
  /** Only orders of this key (absent: every key's, for admins). */
  readonly ownerKeyId?: number;
}

/**
 * Port: order persistence. Writes run in the unit of work's transaction `tx`.
 * Row-level changes are atomic: only one caller can complete or delete an open order.
 */
export interface OrderRepository {
  findById(id: number, tx?: Transaction): Promise<Order | null>;
  findPage(filter: OrderFilter, page: PageRequest): Promise<Page<Order>>;
  create(order: NewOrder, ownerKeyId: number, tx: Transaction): Promise<Order>;
  /** Marks an open order complete; null when it is not open (missing or already complete). */
  completeIfOpen(id: number, shipDate: Date, tx: Transaction): Promise<Order | null>;
  /** Deletes an open order; null when it is not open. */
  deleteIfOpen(id: number, tx: Transaction): Promise<Order | null>;
}

export const ORDER_REPOSITORY = Symbol('OrderRepository');
