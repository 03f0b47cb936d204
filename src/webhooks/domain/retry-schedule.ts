/** How failed deliveries are retried (WEBHOOKS_RETRY_* in the configuration). */
export interface RetryPolicy {
  /** Ceiling of the delay after the first failure; doubles with each further one. */
  readonly retryBaseMs: number;
  /** The doubling stops here (and a receiver's Retry-After is cut to it). */
  readonly retryMaxMs: number;
  /** No attempt is scheduled later than this after the delivery first became due. */
  readonly retryForMs: number;
}

/** 30 s doubling to 6 h, for 24 h. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retryBaseMs: 30_000,
  retryMaxMs: 6 * 3_600_000,
  retryForMs: 24 * 3_600_000,
};

/**
 * How long to wait after the `failures`-th failed attempt of a delivery that
 * first became due `elapsedMs` ago, or null when it has failed for good.
 *
 * Exponential backoff with full jitter: a delay drawn uniformly from
 * [0, min(max, base · 2^(failures − 1))) (`random` in [0, 1)), so that the
 * retries of many deliveries that failed together spread over the whole window
 * instead of arriving in waves. A receiver's `Retry-After` (429, 503), when
 * given, is the delay instead, cut to the maximum: it asked for that long.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  failures: number,
  elapsedMs: number,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number | null {
  return withinRetryWindow(policy, elapsedMs, backoffDelayMs(policy, failures, retryAfterMs, random));
}

/** The delay of {@link retryDelayMs}, whether or not the delivery's retry window still allows it. */
export function backoffDelayMs(
  policy: RetryPolicy,
  failures: number,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  const doublings = Math.min(Math.max(failures - 1, 0), 40);
  const ceiling = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** doublings);
  return retryAfterMs === null
    ? Math.floor(random() * ceiling)
    : Math.min(Math.max(retryAfterMs, 0), policy.retryMaxMs);
}

/** `delayMs`, or null when the attempt would fall after the retry window of a delivery due `elapsedMs` ago. */
export function withinRetryWindow(policy: RetryPolicy, elapsedMs: number, delayMs: number): number | null {
  return elapsedMs + delayMs > policy.retryForMs ? null : delayMs;
}
