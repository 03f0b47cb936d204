import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CategoryResponse } from '../../../categories/index.js';
import { PetResponse } from '../../../pets/index.js';
import type { StoreEventType } from '../../domain/store-event.js';
import {
  InventoryChangedDataSchema,
  OrderEventDataSchema,
  PetStatusChangedDataSchema,
  PingDataSchema,
} from './event-data.response.js';

const OCCURRED_AT = { type: 'string', format: 'date-time', example: '2026-11-21T10:00:00.000Z' } as const;

/** One event type as sent: `type` holds its one value, so a discriminator can tell the types apart. */
function storeEventSchema(type: StoreEventType, name: string, description: string, data: Type) {
  @ApiSchema({ name, description })
  class StoreEventSchema {
    @ApiProperty({ type: 'integer', format: 'int64', description: 'Event id: increases in commit order', example: 42 })
    id!: number;

    @ApiProperty({ enum: [type] })
    type!: StoreEventType;

    @ApiProperty(OCCURRED_AT)
    occurredAt!: string;

    @ApiProperty({ type: data })
    data!: object;
  }
  return StoreEventSchema;
}

/** A schema per event type; typed by `StoreEventType`, so a new type does not compile without one. */
export const STORE_EVENT_SCHEMAS: Readonly<Record<StoreEventType, Type>> = {
  'order.placed': storeEventSchema(
    'order.placed',
    'OrderPlacedEvent',
    '`POST /store/orders` placed an order',
    OrderEventDataSchema,
  ),
  'order.completed': storeEventSchema(
    'order.completed',
    'OrderCompletedEvent',
    '`PATCH /store/orders/{orderId}` completed an order (`data.shipDate` is set)',
    OrderEventDataSchema,
  ),
  'order.cancelled': storeEventSchema(
    'order.cancelled',
    'OrderCancelledEvent',
    '`DELETE /store/orders/{orderId}` cancelled an order',
    OrderEventDataSchema,
  ),
  'inventory.changed': storeEventSchema(
    'inventory.changed',
    'InventoryChangedEvent',
    "A pet's units in stock changed: an order, a cancellation or a restock",
    InventoryChangedDataSchema,
  ),
  'pet.status_changed': storeEventSchema(
    'pet.status_changed',
    'PetStatusChangedEvent',
    "A pet's status changed, whatever changed it",
    PetStatusChangedDataSchema,
  ),
  // Catalogue changes carry the resource as the API returns it (for a deletion, as it was last).
  'pet.created': storeEventSchema('pet.created', 'PetCreatedEvent', '`POST /pets` added a pet', PetResponse),
  'pet.updated': storeEventSchema(
    'pet.updated',
    'PetUpdatedEvent',
    '`PUT` or `PATCH /pets/{petId}` changed a pet (an edit that changes nothing sends none)',
    PetResponse,
  ),
  'pet.deleted': storeEventSchema(
    'pet.deleted',
    'PetDeletedEvent',
    '`DELETE /pets/{petId}` deleted a pet: `data` is the pet as it was',
    PetResponse,
  ),
  'category.created': storeEventSchema(
    'category.created',
    'CategoryCreatedEvent',
    '`POST /categories` created a category',
    CategoryResponse,
  ),
  'category.updated': storeEventSchema(
    'category.updated',
    'CategoryUpdatedEvent',
    '`PUT /categories/{categoryId}` changed a category (a replace that changes nothing sends none)',
    CategoryResponse,
  ),
  'category.deleted': storeEventSchema(
    'category.deleted',
    'CategoryDeletedEvent',
    '`DELETE /categories/{categoryId}` deleted a category: `data` is the category as it was',
    CategoryResponse,
  ),
};

/** Not an event of the feed: it has no `id` (its `webhook-id` is `ping_<delivery id>`). */
@ApiSchema({ name: 'PingEvent', description: 'The test message of `POST /webhooks/{webhookId}/test`' })
export class PingEventSchema {
  @ApiProperty({ enum: ['ping'] })
  type!: 'ping';

  @ApiProperty(OCCURRED_AT)
  occurredAt!: string;

  @ApiProperty({ type: PingDataSchema })
  data!: PingDataSchema;
}
