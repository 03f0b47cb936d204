import type { DomainEvent } from '../../shared/domain-events/domain-event.js';
import type { Order } from './order.js';

interface OrderEvent extends DomainEvent {
  readonly orderId: number;
  readonly petId: number;
  readonly quantity: number;
  /** The key the order belongs to (the actor may be an admin acting on it). */
  readonly ownerKeyId: number;
}

/** An order was placed: its units left the pet's stock. */
export interface OrderPlaced extends OrderEvent {
  readonly type: 'OrderPlaced';
}

/** An open order was fulfilled. */
export interface OrderCompleted extends OrderEvent {
  readonly type: 'OrderCompleted';
  readonly shipDate: Date;
}

/** An open order was cancelled: its units returned to stock and the order is gone. */
export interface OrderCancelled extends OrderEvent {
  readonly type: 'OrderCancelled';
}

const fields = (order: Order, actorKeyId: number | null, occurredAt: Date) => ({
  orderId: order.id,
  petId: order.petId,
  quantity: order.quantity,
  ownerKeyId: order.ownerKeyId,
  actorKeyId,
  occurredAt,
});

export const orderPlaced = (order: Order, actorKeyId: number | null, at: Date): OrderPlaced => ({
  type: 'OrderPlaced',
  ...fields(order, actorKeyId, at),
});

export const orderCompleted = (order: Order, actorKeyId: number | null, at: Date): OrderCompleted => ({
  type: 'OrderCompleted',
  ...fields(order, actorKeyId, at),
  shipDate: order.shipDate ?? at,
});

export const orderCancelled = (order: Order, actorKeyId: number | null, at: Date): OrderCancelled => ({
  type: 'OrderCancelled',
  ...fields(order, actorKeyId, at),
});
