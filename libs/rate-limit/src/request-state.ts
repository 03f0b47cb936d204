import type { RateLimitDecision } from './rate-limit-decision.js';
import type { RateLimitClient } from './rate-limit.options.js';

/** What the middleware learnt about a request, for the guard: it neither identifies nor counts again. */
export interface RequestRateLimit {
  readonly client: RateLimitClient;
  /** The plan's decision for this request; null when the storage could not say (fail closed on a probe). */
  readonly decision: RateLimitDecision | null;
}

const STATE = Symbol('rateLimit');

type Carrier = object & { [STATE]?: RequestRateLimit };

export function rememberRateLimit(req: object, state: RequestRateLimit): void {
  (req as Carrier)[STATE] = state;
}

/**
 * What the middleware decided for this request (client, and the plan's decision,
 * `@Throttle` windows included once the guard ran); undefined when the limiter is
 * switched off.
 */
export function recallRateLimit(req: object): RequestRateLimit | undefined {
  return (req as Carrier)[STATE];
}
