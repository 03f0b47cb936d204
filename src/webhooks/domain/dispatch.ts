import type { SigningSecrets } from './signing-secrets.js';

/** A due delivery, claimed by one dispatcher (its row stays locked until the outcome is recorded). */
export interface ClaimedDelivery {
  readonly deliveryId: number;
  readonly webhookId: number;
  readonly url: string;
  /** The endpoint's secrets, sealed: the current one, and the one a rotation replaced while it still signs. */
  readonly secrets: SigningSecrets;
  /** `evt_<event id>` or `ping_<delivery id>`: the same on every attempt, so receivers deduplicate. */
  readonly messageId: string;
  /** The JSON body, the same on every attempt. */
  readonly body: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  /** Milliseconds since the delivery first became due (or was retried by hand). */
  readonly elapsedMs: number;
}

/** What one attempt came to. */
export interface AttemptResult {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

export interface DeliveryOutcome extends AttemptResult {
  readonly deliveryId: number;
  readonly webhookId: number;
  /** When not ok: milliseconds until the next attempt, or null when the delivery has failed for good. */
  readonly retryInMs: number | null;
}

/**
 * The delivery table as the dispatcher uses it. `claim` locks due deliveries with
 * `FOR UPDATE SKIP LOCKED` in a transaction that stays open while `send` runs and
 * commits the outcomes; a crash rolls it back, so the deliveries are due again.
 */
export interface DeliveryQueue {
  /** Creates the deliveries of events not fanned out yet (one dispatcher at a time); returns how many events. */
  fanOut(limit: number): Promise<number>;
  claim(limit: number, send: (due: readonly ClaimedDelivery[]) => Promise<DeliveryOutcome[]>): Promise<number>;
  /** Endpoints failing longer than this are disabled. */
  disableFailingSince(ms: number): Promise<number>;
}
export const DELIVERY_QUEUE = Symbol('DeliveryQueue');

/** One POST as the transport saw it, with what the receiver asked of the sender. */
export interface TransportResult extends AttemptResult {
  /** The receiver answered 410 Gone: it wants no more deliveries. */
  readonly gone: boolean;
  /** A 429's or 503's `Retry-After` in ms (seconds or HTTP-date); null otherwise, or when absent or unparseable. */
  readonly retryAfterMs: number | null;
}

/** POSTs one signed message; never throws (failures are results). */
export interface WebhookTransport {
  post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<TransportResult>;
}
export const WEBHOOK_TRANSPORT = Symbol('WebhookTransport');
