/** How failed deliveries are retried (WEBHOOKS_RETRY_* in the configuration). */
export interface RetryPolicy {
  /** Delay after the first failure; doubles with each further one. */
  readonly retryBaseMs: number;
  /** The doubling stops here. */
  readonly retryMaxMs: number;
  /** No attempt is scheduled later than this after the delivery first became due. */
  readonly retryForMs: number;
}

/** 30 s doubling to 6 h, for 24 h: 13 attempts in all (without jitter). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retryBaseMs: 30_000,
  retryMaxMs: 6 * 3_600_000,
  retryForMs: 24 * 3_600_000,
};

/**
 * How long to wait after the `failures`-th failed attempt of a delivery that
 * first became due `elapsedMs` ago, or null when it has failed for good. The
 * delay doubles from the base up to the maximum, with ±20 % jitter (`random` in
 * [0, 1)) so that endpoints recovering from an outage are not hit all at once.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  failures: number,
  elapsedMs: number,
  random: () => number = Math.random,
): number | null {
  const doublings = Math.min(Math.max(failures - 1, 0), 40);
  const exponential = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** doublings);
  const delay = Math.round(exponential * (0.8 + 0.4 * random()));
  return elapsedMs + delay > policy.retryForMs ? null : delay;
}
