import type { Type } from '@nestjs/common';
import { getSchemaPath, type SchemaObject } from '@nestjs/swagger';
import { PingEventSchema, STORE_EVENT_SCHEMAS } from './dto/typed-event.response.js';

/** `oneOf` the types' schemas, told apart by `type`: their `data` shapes overlap. */
function byType(schemas: Readonly<Record<string, Type>>, description: string): SchemaObject {
  const refs = Object.entries(schemas).map(([type, schema]) => [type, getSchemaPath(schema)] as const);
  return {
    description,
    oneOf: refs.map(([, $ref]) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping: Object.fromEntries(refs) },
  };
}

/** Named unions, which no class can render: the document adds them as written. */
export const EVENT_UNION_SCHEMAS: Readonly<Record<string, SchemaObject>> = {
  Event: byType(
    STORE_EVENT_SCHEMAS,
    'Something that happened in the store, as the feed lists it and webhooks POST it. Ids increase in commit order.',
  ),
  WebhookEvent: byType(
    { ...STORE_EVENT_SCHEMAS, ping: PingEventSchema },
    'What a webhook endpoint receives: an `Event`, or the `PingEvent` of `POST /webhooks/{webhookId}/test`',
  ),
};

export const EVENT_REF = getSchemaPath('Event');
export const WEBHOOK_EVENT_REF = getSchemaPath('WebhookEvent');

/** The classes the unions reference, for `@ApiExtraModels`. */
export const EVENT_MODELS = [...Object.values(STORE_EVENT_SCHEMAS), PingEventSchema];
