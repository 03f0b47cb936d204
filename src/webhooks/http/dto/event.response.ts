import { STORE_EVENT_TYPES, type StoreEvent, type StoreEventData } from '../../domain/store-event.js';

export const EVENT_TYPE_SCHEMA = {
  enum: STORE_EVENT_TYPES,
  enumName: 'EventType',
  enumSchema: {
    description:
      'What happened: an order placed, completed or cancelled; stock or a pet status changed; a pet or a category created, updated or deleted',
  },
} as const;

/** An event as the feed lists it and webhooks POST it; its schema is one per type (../event-schemas.ts). */
export class EventResponse {
  id!: number;
  type!: string;
  occurredAt!: string;
  data!: StoreEventData;

  static from(this: void, event: StoreEvent): EventResponse {
    return Object.assign(new EventResponse(), {
      id: event.id,
      type: event.type,
      occurredAt: event.occurredAt.toISOString(),
      data: event.data,
    });
  }
}
