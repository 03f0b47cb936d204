import type { CallbacksObject } from '@nestjs/swagger';

import { WEBHOOK_EVENT_REF } from './event-schemas.js';

const header = (description: string, example: string) => ({
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

/** The delivery, as an OpenAPI 3.0.3 callback of POST /webhooks. */
export const WEBHOOK_CALLBACKS: CallbacksObject = {
  event: {
    '{$request.body#/url}': {
      post: {
        operationId: 'receiveWebhookEvent',
        // Sent by the service to the endpoint: signed (webhook-signature), not authenticated by an API key.
        security: [],
        summary: 'An event, POSTed to the endpoint',
        description:
          'Standard Webhooks: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<raw body>` with the secret, refuse old timestamps, deduplicate by `webhook-id` (at-least-once delivery). Answer 2xx within 5 seconds; anything else, a redirect or a timeout is retried with exponential backoff (30 s doubling to 6 h, for 24 h).',
        parameters: [
          { name: 'webhook-id', in: 'header' as const, ...header('Message id, the same on every attempt', 'evt_42') },
          { name: 'webhook-timestamp', in: 'header' as const, ...header('Unix seconds of this attempt', '1795000000') },
          {
            name: 'webhook-signature',
            in: 'header' as const,
            ...header(
              '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`; during a secret rotation two of them, space-separated (new secret, then old): accept the message when one verifies',
              'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            ),
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: WEBHOOK_EVENT_REF } } },
        },
        responses: {
          '200': { description: 'Received (any 2xx)' },
          '400': { description: 'Refused by the receiver (any 4xx, e.g. a bad signature): retried later' },
          '500': { description: 'Not received (any other non-2xx): retried later' },
        },
      },
    },
  },
};
