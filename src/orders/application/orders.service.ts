import { Injectable, Optional } from '@nestjs/common';
import { DomainError } from '@petstore/errors';
import { type InventoryLine, inventoryLineEvents, InventoryRepository } from '../../inventory/index.js';
import { DomainEventSubscriptions } from '../../shared/domain-events/domain-events.js';
import { Clock, systemClock } from '../../shared/clock.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { type Transaction, UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import type { OrderOutcome } from '../domain/idempotency.js';
import { orderCancelled, orderCompleted, orderPlaced } from '../domain/order.events.js';
import { canSee, type NewOrder, type Order, type OrderViewer } from '../domain/order.js';
import { cancelOrder, completeOrder, placeOrder } from '../domain/order-rules.js';
import {
  IdempotencyKeyReusedError,
  OrderAlreadyCompleteError,
  OrderNotFoundError,
  OrderPetNotFoundError,
} from '../domain/order.errors.js';
import { type OrderFilter, OrderRepository } from '../domain/order.repository.js';
import { NO_STORE_METRICS, StoreMetrics } from '../domain/store-metrics.js';
import { ReplayedRefusal } from './replayed-refusal.js';

/** An Idempotency-Key and the fingerprint of the request body it came with. */
export interface IdempotencyToken {
  readonly key: string;
  readonly requestHash: string;
}

export interface PlacedOrder {
  readonly order: Order;
  /** True when this is the stored answer to an earlier request with the same key. */
  readonly replayed: boolean;
}

/** A fresh placement, and whether it took the pet's last units. */
interface Placement {
  readonly order: Order;
  readonly stockOut: boolean;
}

/**
 * Use cases for orders: each store event runs in one transaction with the pet's
 * inventory line locked. Events are reported to `StoreMetrics` once committed (a
 * replayed answer or a rolled-back attempt reports nothing).
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly inventory: InventoryRepository,
    private readonly uow: UnitOfWork,
    private readonly events: DomainEventSubscriptions,
    @Optional() private readonly clock: Clock = systemClock,
    @Optional() private readonly metrics: StoreMetrics = NO_STORE_METRICS,
  ) {}

  list(viewer: OrderViewer, filter: Omit<OrderFilter, 'ownerKeyId'>, page: PageRequest): Promise<Page<Order>> {
    return this.orders.findPage(viewer.admin ? filter : { ...filter, ownerKeyId: viewer.keyId }, page);
  }

  async get(viewer: OrderViewer, id: number): Promise<Order> {
    const order = await this.orders.findById(id);
    // Another key's order is "not found", never "forbidden": that would confirm it exists.
    if (!order || !canSee(viewer, order)) throw new OrderNotFoundError(id);
    return order;
  }

  async place(viewer: OrderViewer, input: NewOrder, idempotency?: IdempotencyToken): Promise<PlacedOrder> {
    // The placing statement is the whole change (docs/orders.md, Placing an order): a
    // transaction around it would hold the hot line's lock for one more round trip
    // (the COMMIT), so there is one only when a subscriber needs to join it. A refusal
    // comes out as a value and is thrown after: under an Idempotency-Key, its record
    // has committed.
    const attempt = this.events.wantsPublished(PLACEMENT_EVENTS)
      ? await this.uow.run((tx) => this.tryPlace(viewer, input, idempotency, tx))
      : await this.tryPlace(viewer, input, idempotency);
    if (attempt.kind === 'replay') return { order: replay(attempt.outcome, input), replayed: true };
    if (attempt.placement instanceof DomainError) throw attempt.placement;
    this.reportPlaced(attempt.placement);
    return { order: attempt.placement.order, replayed: false };
  }

  async complete(viewer: OrderViewer, id: number, shipDate?: Date): Promise<Order> {
    const { petId } = await this.get(viewer, id);
    const completed = await this.uow.run(async (tx) => {
      // Lock the inventory line before touching the order: every use case locks in the
      // same order (line, then order), and the line's open-order count is read
      // before this order closes.
      const line = await this.inventory.lock(petId, tx);
      const now = this.clock.now();
      const order = await this.orders.completeIfOpen(id, shipDate ?? now, tx);
      if (!order) throw await this.notOpen(tx, id);
      tx.record(orderCompleted(order, viewer.keyId, now));
      if (line) await this.changeLine(tx, line, completeOrder(line), viewer.keyId, now);
      return order;
    });
    this.metrics.orderCompleted();
    return completed;
  }

  async cancel(viewer: OrderViewer, id: number): Promise<void> {
    const { petId } = await this.get(viewer, id);
    await this.uow.run(async (tx) => {
      const line = await this.inventory.lock(petId, tx);
      const order = await this.orders.deleteIfOpen(id, tx);
      if (!order) throw await this.notOpen(tx, id);
      const now = this.clock.now();
      tx.record(orderCancelled(order, viewer.keyId, now));
      if (line) await this.changeLine(tx, line, cancelOrder(line, order.quantity), viewer.keyId, now);
    });
    this.metrics.orderCancelled();
  }

  /**
   * One statement claims the Idempotency-Key (or finds what an earlier request left),
   * applies the rule, takes the units, inserts the order and publishes it (its events
   * in the outbox, its outcome under the key), so the line is locked for the shortest
   * time. The domain rule stays the judge: it names the refusal when the store took
   * nothing. A refusal is returned, not thrown. A store that disagrees with the rule
   * is a fault, thrown (in a transaction, it rolls back; without one, the statement
   * has committed and the fault is reported, not undone).
   */
  private async tryPlace(
    viewer: OrderViewer,
    input: NewOrder,
    idempotency: IdempotencyToken | undefined,
    tx?: Transaction,
  ): Promise<Attempt> {
    const now = this.clock.now();
    const result = await this.orders.placeFromStock(input, viewer.keyId, { occurredAt: now, idempotency }, tx);
    if (result.kind === 'replay') {
      if (result.record.requestHash !== idempotency?.requestHash) throw new IdempotencyKeyReusedError();
      return { kind: 'replay', outcome: result.record.outcome };
    }
    const { before, order } = result;
    if (!before) return { kind: 'tried', placement: new OrderPetNotFoundError(input.petId) };
    const after = ruleOutcome(() => placeOrder(before, input.quantity));
    if (!order) {
      if (after instanceof DomainError) return { kind: 'tried', placement: after };
      throw new Error(`The store refused an order on pet ${input.petId} that the rule allows`);
    }
    if (after instanceof DomainError)
      throw new Error(`The store placed an order on pet ${input.petId} that the rule refuses`);
    if (tx) {
      // For the subscribers that join the transaction; the statement wrote the outbox rows.
      for (const event of inventoryLineEvents(before, after, viewer.keyId, now))
        tx.record({ ...event, published: true });
      tx.record({ ...orderPlaced(order, viewer.keyId, now), published: true });
    }
    return { kind: 'tried', placement: { order, stockOut: after.quantity === 0 } };
  }

  /** Saves an inventory line's transition and records what it amounts to. */
  private async changeLine(
    tx: Transaction,
    line: InventoryLine,
    next: InventoryLine,
    actorKeyId: number,
    now: Date,
  ): Promise<void> {
    await this.inventory.save(line, next, tx);
    for (const event of inventoryLineEvents(line, next, actorKeyId, now)) tx.record(event);
  }

  private reportPlaced(placement: Placement): void {
    this.metrics.orderPlaced();
    if (placement.stockOut) this.metrics.stockOut(placement.order.petId);
  }

  private async notOpen(tx: Transaction, id: number): Promise<DomainError> {
    return (await this.orders.findById(id, tx)) ? new OrderAlreadyCompleteError(id) : new OrderNotFoundError(id);
  }
}

/** The events a placement publishes (`OrdersService.tryPlace`). */
const PLACEMENT_EVENTS = ['InventoryChanged', 'PetStatusChanged', 'OrderPlaced'] as const;

/** What a placement came to: a replay of an earlier request's outcome, or a fresh placement or refusal. */
type Attempt =
  | { readonly kind: 'replay'; readonly outcome: OrderOutcome }
  | { readonly kind: 'tried'; readonly placement: Placement | DomainError };

/** The rule's answer: the line after it, or its refusal. */
function ruleOutcome<T>(rule: () => T): T | DomainError {
  try {
    return rule();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/** The first answer again: the order, or the refusal — named again by the rule from the line it was refused on. */
function replay(outcome: OrderOutcome, input: NewOrder): Order {
  if (outcome.kind === 'placed') return outcome.order;
  if (outcome.kind === 'refused') throw new ReplayedRefusal(outcome.code, outcome.errorKind, outcome.message);
  const refusal = outcome.line
    ? ruleOutcome(() => placeOrder({ petId: input.petId, ...outcome.line! }, input.quantity))
    : new OrderPetNotFoundError(input.petId);
  if (!(refusal instanceof DomainError)) {
    throw new Error(`A refusal stored for pet ${input.petId} is allowed by the rule now`);
  }
  throw new ReplayedRefusal(refusal.code, refusal.kind, refusal.message);
}
