/** How long to wait between attempts (options of the client, with these defaults). */
export interface BackoffOptions {
  /** First step of the exponential backoff, ms (default 250). */
  readonly baseDelayMs?: number;
  /** Cap of one backoff step, ms (default 30,000). */
  readonly maxDelayMs?: number;
}

export const DEFAULT_BASE_DELAY_MS = 250;
export const DEFAULT_MAX_DELAY_MS = 30_000;

/** Full jitter (uniform in [0, min(cap, base·2^n))) for the n-th retry, n from 0. */
export function fullJitter(n: number, random: () => number, options: BackoffOptions = {}): number {
  const base = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const cap = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  return Math.floor(random() * Math.min(cap, base * 2 ** n));
}

/**
 * The wait after a 429: `Retry-After` and never less; on repeated 429s in a row
 * (`consecutive` from 1), a full-jitter exponential step on top, so clients that
 * were refused together do not come back together.
 */
export function delayAfter429(
  retryAfterSeconds: number | null,
  consecutive: number,
  random: () => number,
  options: BackoffOptions = {},
): number {
  const floor = (retryAfterSeconds ?? 1) * 1000;
  return consecutive <= 1 ? floor : floor + fullJitter(consecutive - 2, random, options);
}

/** The wait after a 503 or a network error (`attempt` from 1): full jitter, never under `Retry-After`. */
export function delayAfterFailure(
  retryAfterSeconds: number | null,
  attempt: number,
  random: () => number,
  options: BackoffOptions = {},
): number {
  return Math.max((retryAfterSeconds ?? 0) * 1000, fullJitter(attempt - 1, random, options));
}
