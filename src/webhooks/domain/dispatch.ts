import type { EndpointState, EndpointVerdict, SendDecision } from './endpoint-backoff.js';
import type { SigningSecrets } from './signing-secrets.js';

/** A delivery's job, as the queue hands it to a worker. */
export interface DeliveryJob {
  readonly deliveryId: number;
  /** The job's id: a delivery whose current job is another one (retried, cancelled) is not sent by this one. */
  readonly jobId: string;
  /** Asked for by the endpoint's owner (`POST …/retry`, a ping): it does not wait for the endpoint's backoff. */
  readonly askedByOwner: boolean;
}

/** A delivery about to be sent, read right before sending (outside any transaction). */
export interface DueDelivery {
  readonly deliveryId: number;
  readonly webhookId: number;
  readonly jobId: string;
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
  /** Its job was asked for by the endpoint's owner (carried over when the delivery waits for a busy endpoint). */
  readonly askedByOwner: boolean;
  /** The W3C `traceparent` of the change that made its event, when that change was traced; null otherwise (pings too). */
  readonly traceParent: string | null;
}

/** What one POST came to. */
export interface TransportResult {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** The receiver answered 410 Gone: it wants no more deliveries. */
  readonly gone: boolean;
  /** The receiver's Retry-After (on 429 and 503), in ms; null when it gave none. */
  readonly retryAfterMs: number | null;
}

/** One attempt as it is recorded. */
export interface AttemptOutcome {
  readonly delivery: DueDelivery;
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** When not ok: milliseconds until the next attempt, or null when the delivery has failed for good. */
  readonly retryInMs: number | null;
  /** The reason to disable the endpoint now (410 Gone), or null. */
  readonly disable: string | null;
  /** What the attempt says about the endpoint: its backoff ends, starts (or lasts longer), or stays as it is. */
  readonly endpoint: EndpointVerdict;
}

/** Turns the outbox's new events into deliveries and their jobs. */
export abstract class OutboxRelay {
  /**
   * Relays up to `limit` events not relayed yet, in one transaction, one relaying
   * instance at a time (the others return 0 at once); first cancels the pending
   * deliveries of endpoints that were disabled or whose key was revoked. Returns
   * how many events were relayed.
   */
  abstract relay(limit: number): Promise<number>;
}

/**
 * The delivery table and its jobs, as the workers use them. Every method is one
 * short transaction at most; none is open while a receiver answers.
 */
export abstract class DeliveryStore {
  /** The delivery `job` is to send, or null when there is none (done, cancelled, superseded, or its endpoint stopped). */
  abstract due(job: DeliveryJob): Promise<DueDelivery | null>;
  /**
   * Under the endpoint's row lock, asks `decide` whether the delivery goes now:
   * then takes one of the endpoint's sending slots (it expires, so a crashed
   * sender frees its own) and returns true; otherwise moves the delivery to a
   * new job due when decided, ahead of the endpoint's later ones, without
   * counting an attempt or touching its retry window, and returns false (false
   * too when the job was superseded meanwhile).
   */
  abstract claim(delivery: DueDelivery, decide: (endpoint: EndpointState) => SendDecision): Promise<boolean>;
  /**
   * Records an attempt, schedules the next one as a new job (same transaction),
   * and disables the endpoint (cancelling its pending deliveries) when the outcome
   * says so or when it has failed for longer than `disableAfterMs`. Returns the
   * reason the endpoint was disabled, or null.
   */
  abstract record(outcome: AttemptOutcome, disableAfterMs: number): Promise<string | null>;
}

/** The job queue's workers in this instance. */
export abstract class DeliveryWorkers {
  /** Starts them: `send` runs for each due job, at most WEBHOOKS_CONCURRENCY at once here, WEBHOOKS_ENDPOINT_CONCURRENCY per endpoint overall. */
  abstract start(send: (job: DeliveryJob) => Promise<void>): Promise<void>;
  /** Stops them: deliveries in flight finish, or are released to another instance after the grace period. */
  abstract stop(): Promise<void>;
}

/** POSTs one signed message; never throws (failures are results). */
export abstract class WebhookTransport {
  abstract post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<TransportResult>;
}
