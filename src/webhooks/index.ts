/** The webhooks module's public entry: what the composition root (and its tests) import. */
export { WEBHOOK_MIGRATION_RENAMES, WEBHOOK_MIGRATIONS, WebhooksModule } from './webhooks.module.js';
export { STORE_EVENT_TYPES, type StoreEvent, type StoreEventType } from './domain/store-event.js';
export { EVENT_UNION_SCHEMAS } from './http/event-schemas.js';
