import type { StoreEvent } from './store-event.js';

/** The id and JSON body a delivery sends, the same on every attempt (receivers deduplicate by the id). */
export interface WebhookMessage {
  readonly messageId: string;
  readonly body: string;
}

/** An event as POSTed: the feed's shape `{id, type, occurredAt, data}`. */
export function eventMessage(event: Omit<StoreEvent, 'ownerKeyId'>): WebhookMessage {
  const { id, type, occurredAt, data } = event;
  return { messageId: `evt_${id}`, body: JSON.stringify({ id, type, occurredAt: occurredAt.toISOString(), data }) };
}

/** The test message of POST /webhooks/{webhookId}/test. */
export function pingMessage(deliveryId: number, webhookId: number, createdAt: Date): WebhookMessage {
  return {
    messageId: `ping_${deliveryId}`,
    body: JSON.stringify({ type: 'ping', occurredAt: createdAt.toISOString(), data: { webhookId } }),
  };
}
