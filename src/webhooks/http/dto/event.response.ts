import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { STORE_EVENT_TYPES, type StoreEvent, type StoreEventData } from '../../domain/store-event.js';
import { InventoryChangedDataSchema, OrderEventDataSchema, PetStatusChangedDataSchema } from './event-data.response.js';

export const EVENT_TYPE_SCHEMA = {
  enum: STORE_EVENT_TYPES,
  enumName: 'EventType',
  enumSchema: { description: 'What happened: an order placed, completed or cancelled; stock or a pet status changed' },
} as const;

@ApiSchema({
  name: 'Event',
  description:
    'Something that happened in the store, as the feed lists it and webhooks POST it. Ids increase in commit order.',
})
export class EventResponse {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Event id: increases in commit order', example: 42 })
  id!: number;

  @ApiProperty({ ...EVENT_TYPE_SCHEMA })
  type!: string;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  occurredAt!: string;

  @ApiProperty({
    description:
      '`OrderEventData` for `order.*`, `InventoryChangedData` for `inventory.changed`, `PetStatusChangedData` for `pet.status_changed`',
    oneOf: [
      { $ref: getSchemaPath(OrderEventDataSchema) },
      { $ref: getSchemaPath(InventoryChangedDataSchema) },
      { $ref: getSchemaPath(PetStatusChangedDataSchema) },
    ],
  })
  data!: StoreEventData;

  static from(event: StoreEvent): EventResponse {
    return Object.assign(new EventResponse(), {
      id: event.id,
      type: event.type,
      occurredAt: event.occurredAt.toISOString(),
      data: event.data,
    });
  }
}
