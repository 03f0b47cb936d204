/**
 * Whether a delivery is sent now or waits, decided under its endpoint's row lock
 * (so instances agree), and what an attempt's result says about the endpoint.
 *
 * An endpoint whose attempt failed backs off until that delivery's next attempt:
 * its other deliveries wait instead of each taking a worker for the timeout, so a
 * hanging endpoint holds a worker once per retry period. They wait without a job
 * (parked) while another delivery of the endpoint has one, the probe: the failed
 * delivery's next attempt. Its 2xx gives them all their jobs back, in order; were
 * they each moved to the backoff's end instead, every period would move all of
 * them again. Until a 2xx, a retry goes before first attempts. Waiting is not an
 * attempt. An owner's retry or ping goes at once: it is how the owner checks
 * that the endpoint works again.
 */

/** The endpoint as a delivery finds it right before sending. */
export interface EndpointState {
  /** Its other deliveries being sent now (holding a sending slot). */
  readonly inFlight: number;
  /** Until when it backs off after its last failed attempt; null when it answered since (or never failed). */
  readonly backoffUntil: Date | null;
  /** Another of its pending deliveries has a job (being sent, or due later): it will try the endpoint. */
  readonly probed: boolean;
  /** One of those has failed before: a retry, which goes first once the backoff is over. */
  readonly retrying: boolean;
  readonly now: Date;
}

export type SendDecision =
  | { readonly send: true }
  /** Moved to a new job due at `at`; not an attempt. Busy: ahead of the endpoint's later deliveries. */
  | { readonly send: false; readonly why: 'busy' | 'backing off'; readonly at: Date }
  /** Waits without a job until the endpoint answers again; not an attempt. */
  | { readonly send: false; readonly why: 'parked' };

export interface SendRules {
  /** Deliveries one endpoint is sent at once (WEBHOOKS_ENDPOINT_CONCURRENCY). */
  readonly endpointConcurrency: number;
  /** The owner asked for this delivery (`POST …/retry`, a ping): it does not wait for the backoff. */
  readonly askedByOwner: boolean;
  /** Attempts this delivery has made: a first attempt yields to a retry while the endpoint is failing. */
  readonly attempts: number;
}

/** A delivery that found its endpoint's slots taken tries again after this (and up to as long again). */
export const BUSY_RETRY_MS = 250;

export function decideSend(
  endpoint: EndpointState,
  rules: SendRules,
  random: () => number = Math.random,
): SendDecision {
  const { backoffUntil, now } = endpoint;
  if (!rules.askedByOwner && backoffUntil !== null) {
    if (backoffUntil > now)
      return endpoint.probed ? { send: false, why: 'parked' } : { send: false, why: 'backing off', at: backoffUntil };
    // Over, but no 2xx since: the failed deliveries are retried first (fetched in creation order, older first
    // attempts would come before them and each start a new backoff, and the retries would never run).
    if (rules.attempts === 0 && endpoint.retrying) return { send: false, why: 'parked' };
  }
  if (endpoint.inFlight >= rules.endpointConcurrency)
    return { send: false, at: new Date(now.getTime() + BUSY_RETRY_MS * (1 + random())), why: 'busy' };
  return { send: true };
}

/**
 * What an attempt says about its endpoint: a 2xx ends its backoff; any other
 * answer or none backs it off until `nextAttemptAt` (the failed delivery's next
 * attempt, or when it would have been for one that failed for good); a secret
 * that cannot be opened is this service's fault and changes nothing.
 */
export type EndpointVerdict = 'answered' | 'unchanged' | { readonly backOffUntil: Date };

export function endpointVerdict(
  attempt: { readonly sent: boolean; readonly ok: boolean; readonly gone: boolean },
  nextAttemptAt: Date,
): EndpointVerdict {
  if (attempt.ok) return 'answered';
  // A 410 disables the endpoint instead.
  if (!attempt.sent || attempt.gone) return 'unchanged';
  return { backOffUntil: nextAttemptAt };
}
