import type { StoreEventType } from './store-event.js';

/** Endpoints one API key may register. */
export const MAX_WEBHOOKS_PER_KEY = 10;

/** A client's endpoint: where the events it subscribed to are POSTed, signed with its secret. */
export interface Webhook {
  readonly id: number;
  readonly ownerKeyId: number;
  readonly url: string;
  readonly events: readonly StoreEventType[];
  readonly description: string | null;
  /** False once it answered 410 Gone or failed for WEBHOOKS_DISABLE_AFTER_MS in a row (or the client paused it); PATCH re-enables. */
  readonly enabled: boolean;
  /** Why it is disabled; null while enabled. */
  readonly disabledReason: string | null;
  /** Since when every attempt failed; null after a success. */
  readonly failingSince: Date | null;
  readonly createdAt: Date;
}

export interface NewWebhook {
  readonly url: string;
  readonly events: readonly StoreEventType[];
  readonly description?: string | null;
}

export type WebhookPatch = Partial<NewWebhook> & { readonly enabled?: boolean };

/** `cancelled`: dropped before it was delivered (its endpoint disabled or deleted, or its key revoked). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One event (or ping) for one endpoint, with its latest attempt. */
export interface Delivery {
  readonly id: number;
  readonly webhookId: number;
  /** Null for a ping. */
  readonly eventId: number | null;
  readonly eventType: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly lastDurationMs: number | null;
  readonly nextAttemptAt: Date | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
}
