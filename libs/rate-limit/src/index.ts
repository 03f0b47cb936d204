export { RateLimitModule } from './rate-limit.module.js';
export type { RateLimitClient, RateLimitOptions, RateLimitQuota, RateLimitRefusal } from './rate-limit.options.js';
export { RateLimitMiddleware } from './rate-limit.middleware.js';
export { RateLimitGuard } from './rate-limit.guard.js';
export { RateLimiter } from './rate-limiter.js';
export type { ActiveBan } from './rate-limit.storage.js';
export { RateLimitHealth } from './rate-limit-health.js';
export {
  type RateLimitDecision,
  rateLimitHeaders,
  reportedWindows,
  resetSeconds,
  type WindowView,
} from './rate-limit-decision.js';
export { recallRateLimit, type RequestRateLimit } from './request-state.js';
export { SkipThrottleIfIdentified } from './throttled-routes.js';
