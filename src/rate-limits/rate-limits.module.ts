import { Module } from '@nestjs/common';
import { ApiKeyResolver } from '@petstore/auth';
import { RateLimitModule, type RateLimitOptions } from '@petstore/rate-limit';
import { type AppConfig, appConfig } from '../config/app.config.js';
import { CLOCK, type Clock } from '../shared/clock.js';
import { PrometheusRateLimitObserver } from '../metrics/prometheus-rate-limit-observer.js';
import { type ApiClient, identifyByApiKey, quotaOfPlan, refusalError } from './api-clients.js';
import { PlanTableService } from './plan-table.js';
import { PlansModule } from './plans.module.js';

/** Probes must never be throttled: a load balancer probing every few seconds would use up the free plan. */
const HEALTH_PROBES = ['/health/live', '/health/ready'];

/** What this service tells the rate-limit library: who a client is, the plan table, the errors, the settings. */
export function rateLimitOptions(
  config: AppConfig,
  resolver: ApiKeyResolver,
  plans: PlanTableService,
  observer: PrometheusRateLimitObserver,
  clock?: Clock,
): RateLimitOptions<ApiClient> {
  const { enabled, redisUrl, redisKeyPrefix, failOpen, banThresholdMultiplier, banDurationSeconds } = config.rateLimit;
  return {
    identify: identifyByApiKey(resolver),
    quotaOf: quotaOfPlan(plans),
    refusalError,
    onRefusal: (refusal) =>
      observer.rejected({
        plan: refusal.client.key ? refusal.client.key.plan : 'anonymous',
        reason: refusal.reason === 'banned' ? 'API_KEY_BANNED' : 'RATE_LIMIT_EXCEEDED',
      }),
    exemptPaths: HEALTH_PROBES,
    redis: enabled && redisUrl ? { url: redisUrl, keyPrefix: redisKeyPrefix } : undefined,
    failOpen,
    banThresholdMultiplier,
    banDurationSeconds,
    // A test's clock (CLOCK), when it provides one, moves the in-process windows too.
    now: clock ? () => clock().getTime() : undefined,
  };
}

/**
 * Plans and rate limits (API.md section 5; docs/rate-limits.md): the plan table,
 * and the rate-limit library configured for API keys. `configureApp` mounts its
 * middleware; its guard serves `@Throttle` / `@SkipThrottle` on routes.
 */
@Module({
  imports: [
    PlansModule,
    RateLimitModule.forRootAsync({
      imports: [PlansModule],
      inject: [
        appConfig.KEY,
        ApiKeyResolver,
        PlanTableService,
        PrometheusRateLimitObserver,
        { token: CLOCK, optional: true },
      ],
      useFactory: rateLimitOptions,
    }),
  ],
})
export class RateLimitsModule {}
