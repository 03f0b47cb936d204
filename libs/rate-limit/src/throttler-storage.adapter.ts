import type { ThrottlerStorage } from '@nestjs/throttler';
import type { HitRequest } from './fixed-window.js';
import type { RateLimitDecision } from './rate-limit-decision.js';
import type { RateLimiter } from './rate-limiter.js';

/** What `ThrottlerStorage.increment` resolves to (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Prefix of the counters of route windows: `throttler:<client id>:<throttler>:<Controller.handler>`. */
export const THROTTLER_PREFIX = 'throttler:';

/**
 * @nestjs/throttler's storage interface over the limiter's O(1) storages (memory
 * or Redis, failing open or closed like the plan): one fixed window of `ttl` ms
 * per key; a `blockDuration` blocks from the first refusal, as the throttler does.
 */
export class ThrottlerStorageAdapter implements ThrottlerStorage {
  constructor(private readonly limiter: RateLimiter) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const request: HitRequest = {
      windows: [{ name: throttlerName, limit, durationMs: ttl }],
      ban: blockDuration > 0 ? { threshold: 0, durationMs: blockDuration, windowMs: ttl } : null,
      consume: true,
    };
    return throttlerRecord(await this.limiter.hit(`${THROTTLER_PREFIX}${key}`, request));
  }
}

/** The guard refuses when `isBlocked`; times are whole seconds, rounded up. */
function throttlerRecord(decision: RateLimitDecision): ThrottlerStorageRecord {
  const window = decision.windows[0];
  const refused = decision.outcome !== 'allowed';
  const seconds = (at: number) => Math.max(0, Math.ceil((at - decision.now) / 1000));
  const counted = window.limit - window.remaining;
  const blockedUntil = decision.outcome === 'banned' ? decision.binding.resetAt : window.resetAt;
  return {
    totalHits: refused ? Math.max(counted, window.limit) + 1 : counted,
    timeToExpire: seconds(window.resetAt),
    isBlocked: refused,
    timeToBlockExpire: refused ? seconds(blockedUntil) : 0,
  };
}
