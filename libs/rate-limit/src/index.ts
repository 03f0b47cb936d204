export { DEFAULT_PLAN_TABLE, isPlanName, PLAN_NAMES, type PlanLimits, type PlanName, type PlanTable } from './plan.js';
export {
  applyPlanOverrides,
  describePlanTable,
  loadPlanTable,
  MAX_QUOTA,
  parsePlanTable,
  PlanConfigError,
  type PlanOverrides,
  type PlanSource,
  TABLE_PLANS,
  type TablePlanName,
} from './plans-file.js';
export { PlanTableService } from './plan-table.js';
export {
  applyHit,
  type BanRule,
  DAY_MS,
  type HitOutcome,
  type HitRequest,
  type HitResult,
  MINUTE_MS,
  type WindowCount,
  type WindowRule,
} from './fixed-window.js';
export {
  bindingWindow,
  decide,
  rateLimitHeaders,
  type RateLimitDecision,
  type WindowView,
} from './rate-limit-decision.js';
export { RATE_LIMIT_STORAGE, type RateLimitStorage, RateLimitStorageUnavailableError } from './rate-limit.storage.js';
export { MemoryRateLimitStorage } from './memory.storage.js';
export { RedisRateLimitStorage, type RedisStorageOptions } from './redis.storage.js';
export { clientId, type RateLimitClient, RateLimiter, type RateLimiterSettings } from './rate-limiter.js';
export { RateLimitHealth, type RateLimitHealthProbe, type RateLimitHealthStatus } from './rate-limit-health.js';
export { clientAddress } from './client-ip.js';
export { DEFAULT_EXEMPT_PATHS, RateLimitMiddleware } from './rate-limit.middleware.js';
export {
  RATE_LIMIT_OBSERVER,
  type RateLimitObserver,
  type RateLimitRejection,
  type RateLimitRejectionReason,
} from './rate-limit.observer.js';
export {
  RATE_LIMIT_OPTIONS,
  RateLimitModule,
  type RateLimitModuleAsyncOptions,
  type RateLimitOptions,
} from './rate-limit.module.js';
