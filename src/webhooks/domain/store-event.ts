import type { OrderCancelled, OrderCompleted, OrderPlaced } from '../../orders/index.js';
import type { InventoryChanged } from '../../inventory/index.js';
import type { PetStatus, PetStatusChanged } from '../../pets/index.js';
import type { DomainEvent } from '../../shared/domain-events/domain-event.js';

/** The event types clients see in the feed and subscribe webhooks to. */
export const STORE_EVENT_TYPES = [
  'order.placed',
  'order.completed',
  'order.cancelled',
  'inventory.changed',
  'pet.status_changed',
] as const;
export type StoreEventType = (typeof STORE_EVENT_TYPES)[number];

export interface OrderEventData {
  readonly orderId: number;
  readonly petId: number;
  readonly quantity: number;
  /** Only on `order.completed`. */
  readonly shipDate?: string;
}

export interface InventoryChangedData {
  readonly petId: number;
  readonly oldQuantity: number;
  readonly newQuantity: number;
  readonly oldStatus: PetStatus;
  readonly newStatus: PetStatus;
}

export interface PetStatusChangedData {
  readonly petId: number;
  readonly oldStatus: PetStatus;
  readonly newStatus: PetStatus;
}

export type StoreEventData = OrderEventData | InventoryChangedData | PetStatusChangedData;

/** An event as the outbox keeps it, before it has an id. */
export interface NewStoreEvent {
  readonly type: StoreEventType;
  readonly occurredAt: Date;
  /** The order's owner for order events (only it, and admin keys, may see them); null for catalogue events. */
  readonly ownerKeyId: number | null;
  readonly data: StoreEventData;
}

/** An event of the feed: ids increase in commit order. */
export interface StoreEvent extends NewStoreEvent {
  readonly id: number;
}

type Published = OrderPlaced | OrderCompleted | OrderCancelled | InventoryChanged | PetStatusChanged;

const orderData = (e: OrderPlaced | OrderCompleted | OrderCancelled): OrderEventData => ({
  orderId: e.orderId,
  petId: e.petId,
  quantity: e.quantity,
});

/** The public form of a domain event, or null for an event clients are not told about. */
export function toStoreEvent(event: DomainEvent): NewStoreEvent | null {
  const e = event as Published;
  const at = e.occurredAt;
  switch (e.type) {
    case 'OrderPlaced':
      return { type: 'order.placed', occurredAt: at, ownerKeyId: e.ownerKeyId, data: orderData(e) };
    case 'OrderCompleted':
      return {
        type: 'order.completed',
        occurredAt: at,
        ownerKeyId: e.ownerKeyId,
        data: { ...orderData(e), shipDate: e.shipDate.toISOString() },
      };
    case 'OrderCancelled':
      return { type: 'order.cancelled', occurredAt: at, ownerKeyId: e.ownerKeyId, data: orderData(e) };
    case 'InventoryChanged': {
      const { petId, oldQuantity, newQuantity, oldStatus, newStatus } = e;
      const data = { petId, oldQuantity, newQuantity, oldStatus, newStatus };
      return { type: 'inventory.changed', occurredAt: at, ownerKeyId: null, data };
    }
    case 'PetStatusChanged': {
      const { petId, oldStatus, newStatus } = e;
      return { type: 'pet.status_changed', occurredAt: at, ownerKeyId: null, data: { petId, oldStatus, newStatus } };
    }
    default:
      return null;
  }
}
