import type { Category, CategoryCreated, CategoryDeleted, CategoryUpdated } from '../../categories/index.js';
import type { OrderCancelled, OrderCompleted, OrderPlaced } from '../../orders/index.js';
import type { InventoryChanged } from '../../inventory/index.js';
import type { Pet, PetCreated, PetDeleted, PetStatus, PetStatusChanged, PetUpdated } from '../../pets/index.js';
import type { DomainEvent } from '../../shared/domain-events/domain-event.js';

/** The event types clients see in the feed and subscribe webhooks to. */
export const STORE_EVENT_TYPES = [
  'order.placed',
  'order.completed',
  'order.cancelled',
  'inventory.changed',
  'pet.status_changed',
  'pet.created',
  'pet.updated',
  'pet.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
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

/** A pet as the API returns it (the `Pet` schema): as saved, or for `pet.deleted` as it was. */
export interface PetData {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: PetStatus;
}

/** A category as the API returns it (the `Category` schema): as saved, or for `category.deleted` as it was. */
export interface CategoryData {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
}

export type StoreEventData = OrderEventData | InventoryChangedData | PetStatusChangedData | PetData | CategoryData;

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

type Published =
  | OrderPlaced
  | OrderCompleted
  | OrderCancelled
  | InventoryChanged
  | PetStatusChanged
  | PetCreated
  | PetUpdated
  | PetDeleted
  | CategoryCreated
  | CategoryUpdated
  | CategoryDeleted;

const orderData = (e: OrderPlaced | OrderCompleted | OrderCancelled): OrderEventData => ({
  orderId: e.orderId,
  petId: e.petId,
  quantity: e.quantity,
});

/** Field by field, so the data is the API's resource whatever else a domain object carries. */
const petData = ({ id, name, categoryId, status }: Pet): PetData => ({ id, name, categoryId, status });

const categoryData = ({ id, name, description }: Category): CategoryData =>
  description === undefined ? { id, name } : { id, name, description };

/** Catalogue events: every key may see them (no owner). */
const catalogue = (type: StoreEventType, occurredAt: Date, data: StoreEventData): NewStoreEvent => ({
  type,
  occurredAt,
  ownerKeyId: null,
  data,
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
      return catalogue('inventory.changed', at, { petId, oldQuantity, newQuantity, oldStatus, newStatus });
    }
    case 'PetStatusChanged': {
      const { petId, oldStatus, newStatus } = e;
      return catalogue('pet.status_changed', at, { petId, oldStatus, newStatus });
    }
    case 'PetCreated':
      return catalogue('pet.created', at, petData(e.pet));
    case 'PetUpdated':
      return catalogue('pet.updated', at, petData(e.pet));
    case 'PetDeleted':
      return catalogue('pet.deleted', at, petData(e.pet));
    case 'CategoryCreated':
      return catalogue('category.created', at, categoryData(e.category));
    case 'CategoryUpdated':
      return catalogue('category.updated', at, categoryData(e.category));
    case 'CategoryDeleted':
      return catalogue('category.deleted', at, categoryData(e.category));
    default:
      return null;
  }
}
