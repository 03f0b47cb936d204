/** Why a request was refused with 429. */
export type RateLimitRejectionReason = 'RATE_LIMIT_EXCEEDED' | 'API_KEY_BANNED';

export interface RateLimitRejection {
  /** The plan of the key that was refused, or `anonymous` for requests without a valid key (counted per address). */
  readonly plan: string;
  readonly reason: RateLimitRejectionReason;
}

/**
 * Told about every request the limiter refuses (e.g. to count 429s by plan and
 * reason in metrics). Optional: bind it to `RATE_LIMIT_OBSERVER` in a global module.
 */
export interface RateLimitObserver {
  rejected(rejection: RateLimitRejection): void;
}

export const RATE_LIMIT_OBSERVER = Symbol('RateLimitObserver');
