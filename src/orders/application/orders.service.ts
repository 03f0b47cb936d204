import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError } from '@petstore/errors';
import { cancelOrder, completeOrder, placeOrder } from '../../inventory/domain/stock-line.js';
import { CLOCK, type Clock, systemClock } from '../../shared/clock.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { type Transaction, UNIT_OF_WORK, type UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import type { OrderOutcome } from '../domain/idempotency.js';
import { canSee, type NewOrder, type Order, type OrderViewer } from '../domain/order.js';
import {
  IdempotencyKeyReusedError,
  OrderAlreadyCompleteError,
  OrderNotFoundError,
  OrderPetNotFoundError,
} from '../domain/order.errors.js';
import { ORDER_REPOSITORY, type OrderFilter, type OrderRepository } from '../domain/order.repository.js';
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

/** Use cases for orders: each store event runs in one transaction with the pet's stock line locked. */
@Injectable()
export class OrdersService {
  constructor(
    @Inject(ORDER_REPOSITORY) private readonly orders: OrderRepository,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
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
    if (!idempotency) return { order: await this.uow.run((tx) => this.placeIn(tx, viewer, input)), replayed: false };
    // The outcome leaves the transaction before it is replayed: a refusal is thrown
    // only after its record has committed, so the key remembers it.
    const { outcome, replayed } = await this.uow.run(async (tx) => {
      const previous = await tx.idempotency.claim(viewer.keyId, idempotency.key, idempotency.requestHash, this.clock());
      if (previous) {
        if (previous.requestHash !== idempotency.requestHash) throw new IdempotencyKeyReusedError();
        return { outcome: previous.outcome, replayed: true };
      }
      const fresh = await this.attempt(tx, viewer, input);
      await tx.idempotency.record(viewer.keyId, idempotency.key, fresh);
      return { outcome: fresh, replayed: false };
    });
    return { order: replay(outcome), replayed };
  }

  async complete(viewer: OrderViewer, id: number, shipDate?: Date): Promise<Order> {
    const { petId } = await this.get(viewer, id);
    return this.uow.run(async (tx) => {
      // Lock the stock line before touching the order: every use case locks in the
      // same order (line, then order), and the line's open-order count is read
      // before this order closes.
      const line = await tx.stock.lock(petId);
      const order = await tx.orders.completeIfOpen(id, shipDate ?? this.clock());
      if (!order) throw await this.notOpen(tx, id);
      if (line) await tx.stock.save(line, completeOrder(line));
      return order;
    });
  }

  async cancel(viewer: OrderViewer, id: number): Promise<void> {
    const { petId } = await this.get(viewer, id);
    await this.uow.run(async (tx) => {
      const line = await tx.stock.lock(petId);
      const order = await tx.orders.deleteIfOpen(id);
      if (!order) throw await this.notOpen(tx, id);
      if (line) await tx.stock.save(line, cancelOrder(line, order.quantity));
    });
  }

  private async placeIn(tx: Transaction, viewer: OrderViewer, input: NewOrder): Promise<Order> {
    const line = await tx.stock.lock(input.petId);
    if (!line) throw new OrderPetNotFoundError(input.petId);
    await tx.stock.save(line, placeOrder(line, input.quantity));
    return tx.orders.create(input, viewer.keyId);
  }

  /** Places the order in a savepoint, so a refusal is remembered under the key while its writes are undone. */
  private async attempt(tx: Transaction, viewer: OrderViewer, input: NewOrder): Promise<OrderOutcome> {
    try {
      return { kind: 'placed', order: await tx.savepoint(() => this.placeIn(tx, viewer, input)) };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { kind: 'refused', code: error.code, errorKind: error.kind, message: error.message };
    }
  }

  private async notOpen(tx: Transaction, id: number): Promise<DomainError> {
    return (await tx.orders.findById(id)) ? new OrderAlreadyCompleteError(id) : new OrderNotFoundError(id);
  }
}

function replay(outcome: OrderOutcome): Order {
  if (outcome.kind === 'refused') throw new ReplayedRefusal(outcome.code, outcome.errorKind, outcome.message);
  return outcome.order;
}
