import { fromInt8, toInt8 } from '../../database/index.js';
import type { OrderOutcome } from '../domain/idempotency.js';
import type { NewOrder, Order } from '../domain/order.js';
import type { OrderOrmEntity } from './order.orm-entity.js';

/** Plain JSON form of an order, as kept in idempotency records. */
export interface OrderJson {
  id: number;
  petId: number;
  quantity: number;
  shipDate: string | null;
  complete: boolean;
  ownerKeyId: number;
}

export const OrderMapper = {
  toDomain(this: void, row: OrderOrmEntity): Order {
    return {
      id: fromInt8(row.id),
      petId: fromInt8(row.petId),
      quantity: row.quantity,
      shipDate: row.shipDate,
      complete: row.complete,
      ownerKeyId: fromInt8(row.ownerKeyId),
    };
  },
  toColumns(order: NewOrder, ownerKeyId: number): Partial<OrderOrmEntity> {
    return {
      petId: toInt8(order.petId),
      quantity: order.quantity,
      shipDate: order.shipDate ?? null,
      complete: false,
      ownerKeyId: toInt8(ownerKeyId),
    };
  },
  toJson(order: Order): OrderJson {
    return { ...order, shipDate: order.shipDate?.toISOString() ?? null };
  },
  fromJson(json: OrderJson): Order {
    return { ...json, shipDate: json.shipDate === null ? null : new Date(json.shipDate) };
  },
};

/** An outcome as `orders_place` stores it under an Idempotency-Key (and, for `refused`, builds before it). */
export type StoredOutcome =
  | { kind: 'placed'; order: OrderJson }
  | { kind: 'refused'; line: Extract<OrderOutcome, { kind: 'refusedOn' }>['line'] }
  | Extract<OrderOutcome, { kind: 'refused' }>;

export function fromStored(stored: StoredOutcome): OrderOutcome {
  if (stored.kind === 'placed') return { kind: 'placed', order: OrderMapper.fromJson(stored.order) };
  if ('line' in stored) return { kind: 'refusedOn', line: stored.line };
  return stored;
}
