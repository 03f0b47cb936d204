import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Delivery, Webhook } from '../../domain/webhook.js';
import { EVENT_TYPE_SCHEMA } from './event.response.js';

@ApiSchema({ name: 'Webhook', description: 'A registered endpoint (never its secret)' })
export class WebhookResponse {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  id!: number;

  @ApiProperty({ example: 'https://shop.example.com/hooks/petstore' })
  url!: string;

  @ApiProperty({ ...EVENT_TYPE_SCHEMA, isArray: true })
  events!: string[];

  @ApiPropertyOptional({ example: 'Warehouse sync' })
  description?: string;

  @ApiProperty({
    description:
      'False once it answered 410 Gone or failed for 24 hours in a row, or when paused by PATCH (PATCH `enabled: true` re-enables)',
  })
  enabled!: boolean;

  @ApiPropertyOptional({
    description: 'Why it is disabled (present only while `enabled` is false)',
    example: 'the endpoint answered 410 Gone',
  })
  disabledReason?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Since when every delivery attempt failed (absent after a success)',
  })
  failingSince?: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  static from(this: void, webhook: Webhook): WebhookResponse {
    const response = Object.assign(new WebhookResponse(), {
      id: webhook.id,
      url: webhook.url,
      events: [...webhook.events],
      enabled: webhook.enabled,
      createdAt: webhook.createdAt.toISOString(),
    });
    if (webhook.description !== null) response.description = webhook.description;
    if (webhook.disabledReason !== null) response.disabledReason = webhook.disabledReason;
    if (webhook.failingSince) response.failingSince = webhook.failingSince.toISOString();
    return response;
  }
}

@ApiSchema({
  name: 'NewWebhookSecret',
  description: 'A registered endpoint with its signing secret, shown in this response only',
})
export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({
    description:
      'Signing secret (`whsec_` and base64): verify `webhook-signature` with it (Standard Webhooks). It cannot be shown again.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;

  static withSecret(webhook: Webhook, secret: string): CreatedWebhookResponse {
    return Object.assign(new CreatedWebhookResponse(), WebhookResponse.from(webhook), { secret });
  }
}

@ApiSchema({ name: 'Delivery', description: 'One event (or ping) for one endpoint, with its latest attempt' })
export class DeliveryResponse {
  @ApiProperty({ type: 'integer', format: 'int64', example: 12 })
  id!: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'The event (absent for a ping)', example: 42 })
  eventId?: number;

  @ApiProperty({ description: 'The event type, or `ping`', example: 'order.placed' })
  eventType!: string;

  @ApiProperty({
    enum: ['pending', 'delivered', 'failed', 'cancelled'],
    enumName: 'DeliveryStatus',
    description:
      '`failed`: retried until the retry window ended (POST …/retry sends it again); `cancelled`: dropped undelivered because the endpoint was disabled or its key revoked',
  })
  status!: string;

  @ApiProperty({ type: 'integer', format: 'int32', description: 'Attempts made', example: 1 })
  attempts!: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', description: 'HTTP status of the latest attempt' })
  statusCode?: number;

  @ApiPropertyOptional({ description: 'Why the latest attempt failed' })
  error?: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', description: 'Duration of the latest attempt (ms)' })
  durationMs?: number;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'When it is tried next (pending only)' })
  nextRetryAt?: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time' })
  deliveredAt?: string;

  static from(this: void, d: Delivery): DeliveryResponse {
    const response = Object.assign(new DeliveryResponse(), {
      id: d.id,
      eventType: d.eventType,
      status: d.status,
      attempts: d.attempts,
      createdAt: d.createdAt.toISOString(),
    });
    if (d.eventId !== null) response.eventId = d.eventId;
    if (d.lastStatusCode !== null) response.statusCode = d.lastStatusCode;
    if (d.lastError !== null) response.error = d.lastError;
    if (d.lastDurationMs !== null) response.durationMs = d.lastDurationMs;
    if (d.nextAttemptAt) response.nextRetryAt = d.nextAttemptAt.toISOString();
    if (d.deliveredAt) response.deliveredAt = d.deliveredAt.toISOString();
    return response;
  }
}
