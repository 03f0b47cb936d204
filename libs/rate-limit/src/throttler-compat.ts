import type { ThrottlerStorage } from '@nestjs/throttler';
import type { HitRequest, HitResult } from './fixed-window.js';

/** What `ThrottlerStorage.increment` resolves to (the package does not export the type by name). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * `ThrottlerStorage.increment` in terms of `hit`: one fixed window of `ttl` ms; a
 * `blockDuration` blocks on the first rejection (the throttler's semantics).
 */
export function throttlerRequest(ttl: number, limit: number, blockDuration: number): HitRequest {
  return {
    windows: [{ name: 'throttler', limit, durationMs: ttl }],
    ban: blockDuration > 0 ? { threshold: 0, durationMs: blockDuration, windowMs: ttl } : null,
    consume: true,
  };
}

/** The throttler guard rejects when `totalHits > limit` or `isBlocked`; times are in seconds. */
export function throttlerRecord(request: HitRequest, result: HitResult): ThrottlerStorageRecord {
  const window = result.windows[0];
  const rule = request.windows[0];
  const resetAt = window?.resetAt ?? result.now + rule.durationMs;
  const rejected = result.outcome !== 'allowed';
  const blockedUntil = result.outcome === 'banned' ? (result.banUntil ?? resetAt) : resetAt;
  return {
    totalHits: rejected ? Math.max(window?.count ?? 0, rule.limit) + 1 : (window?.count ?? 0),
    timeToExpire: Math.max(0, Math.ceil((resetAt - result.now) / 1000)),
    isBlocked: rejected,
    timeToBlockExpire: rejected ? Math.max(0, Math.ceil((blockedUntil - result.now) / 1000)) : 0,
  };
}
