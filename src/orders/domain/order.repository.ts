import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { StockLine } from '../../inventory/index.js';
import type { IdempotencyRecord } from './idempotency.js';
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
export abstract class OrderRepository {
  abstract findById(id: number, tx?: Transaction): Promise<Order | null>;
  abstract findPage(filter: OrderFilter, page: PageRequest): Promise<Page<Order>>;
  abstract create(order: NewOrder, ownerKeyId: number, tx: Transaction): Promise<Order>;
  /**
   * Places `order` against its pet's stock, in one statement, under the pet's
   * inventory line lock taken as late and held as briefly as possible: when the line
   * allows it (`placeOrder`'s rule: available, enough units) the units are taken, the
   * last unit makes the pet pending, and the order is inserted. Returns the line as it
   * was before (read under the lock; null: the pet has no inventory line) and the
   * order, null when the line refused it. The caller checks the outcome against the
   * domain rule.
   *
   * The same statement publishes a placed order: the events the rule yields for it
   * (the line's `inventoryLineEvents`, then `OrderPlaced`, at `occurredAt`) are in the
   * outbox, and the caller records them as `published`. Under an Idempotency-Key it
   * first claims the key — or returns, as `replay`, what an earlier request under it
   * left (a concurrent one is waited for) — and stores the outcome. Without `tx`, the
   * statement is a transaction of its own.
   */
  abstract placeFromStock(
    order: NewOrder,
    ownerKeyId: number,
    publish: PlacementPublishing,
    tx?: Transaction,
  ): Promise<PlacementResult>;
  /** Marks an open order complete; null when it is not open (missing or already complete). */
  abstract completeIfOpen(id: number, shipDate: Date, tx: Transaction): Promise<Order | null>;
  /** Deletes an open order; null when it is not open. */
  abstract deleteIfOpen(id: number, tx: Transaction): Promise<Order | null>;
}

/** What `placeFromStock` did: replayed an earlier request's record, or tried the line. */
export type PlacementResult =
  | { readonly kind: 'replay'; readonly record: IdempotencyRecord }
  | { readonly kind: 'tried'; readonly before: StockLine | null; readonly order: Order | null };

/** What `placeFromStock` publishes with its outcome. */
export interface PlacementPublishing {
  /** The time of the placement's events (and of the Idempotency-Key's claim). */
  readonly occurredAt: Date;
  /** The request's Idempotency-Key and the fingerprint of its body. */
  readonly idempotency?: { readonly key: string; readonly requestHash: string };
}
