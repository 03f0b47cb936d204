import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { ApiKeyResolver } from '@petstore/auth';
import { AuditTrailModule } from '../audit/index.js';
import { RateLimitModule, type RateLimitOptions } from '@petstore/rate-limit';
import { type AppConfig, appConfig } from '../config/app.config.js';
import { CONSOLE_PATH } from '../console/console-files.js';
import { Clock } from '../shared/clock.js';
import { PrometheusRateLimitObserver } from '../metrics/prometheus-rate-limit-observer.js';
import { type ApiClient, identifyByApiKey, isAddressCounterId, quotaOfPlan, refusalError } from './api-clients.js';
import { KeyUsageMeter } from './key-usage-meter.js';
import { AddressUnbans } from './address-unbans.js';
import { AdminBansController } from './admin-bans.controller.js';
import { PlanTableAudit } from './plan-table-audit.js';
import { RateLimitController } from './rate-limit.controller.js';
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
  usage: KeyUsageMeter | null = null,
  clock?: Clock,
): RateLimitOptions<ApiClient> {
  const {
    enabled,
    redisUrl,
    redisKeyPrefix,
    failOpen,
    banThresholdMultiplier,
    banDurationSeconds,
    maxAnonymousClients,
  } = config.rateLimit;
  return {
    identify: identifyByApiKey(resolver),
    quotaOf: quotaOfPlan(plans),
    refusalError,
    onRefusal: (refusal) => {
      const { key } = refusal.client;
      observer.rejected({
        plan: key ? key.plan : 'anonymous',
        reason: refusal.reason === 'banned' ? 'API_KEY_BANNED' : 'RATE_LIMIT_EXCEEDED',
      });
      if (!key || !usage) return;
      const accountId = key.account?.id ?? null;
      usage.refused(key.id, accountId, key.previousSecret);
      if (refusal.reason === 'banned' && refusal.started) usage.banned(key.id, accountId);
    },
    onCounted: usage
      ? (client) => {
          if (client.key) usage.counted(client.key.id, client.key.account?.id ?? null, client.key.previousSecret);
        }
      : undefined,
    // A 304 is not charged, nor counted in the key's daily usage; it is still a use of the key.
    onNotModified: usage
      ? (client) => {
          if (client.key) usage.notModified(client.key.id, client.key.account?.id ?? null, client.key.previousSecret);
        }
      : undefined,
    exemptPaths: HEALTH_PROBES,
    // The admin console's page and files: loading the page must not use up anyone's quota (its API calls count).
    exemptPathPrefixes: [CONSOLE_PATH],
    isAnonymousId: isAddressCounterId,
    maxAnonymousClients,
    redis: enabled && redisUrl ? { url: redisUrl, keyPrefix: redisKeyPrefix } : undefined,
    failOpen,
    banThresholdMultiplier,
    banDurationSeconds,
    // A test's Clock, when it binds one, moves the in-process windows too.
    now: clock ? () => clock.now().getTime() : undefined,
  };
}

/**
 * Plans and rate limits (API.md section 5; docs/rate-limits.md): the plan table,
 * the rate-limit library configured for API keys, and GET /rate-limit. `configureApp`
 * mounts its middleware; its guard serves `@Throttle` / `@SkipThrottle` on routes.
 * `usageModule`, when given, provides `KeyUsageMeter`, told of each key's counted
 * requests, refusals and bans.
 */
@Module({})
export class RateLimitsModule {
  static forRoot(
    options: { readonly usageModule?: NonNullable<ModuleMetadata['imports']>[number] } = {},
  ): DynamicModule {
    const usageModules = options.usageModule ? [options.usageModule] : [];
    return {
      module: RateLimitsModule,
      imports: [
        PlansModule,
        AuditTrailModule,
        RateLimitModule.forRootAsync({
          imports: [PlansModule, ...usageModules],
          inject: [
            appConfig.KEY,
            ApiKeyResolver,
            PlanTableService,
            PrometheusRateLimitObserver,
            { token: KeyUsageMeter, optional: true },
            { token: Clock, optional: true },
          ],
          useFactory: rateLimitOptions,
        }),
      ],
      controllers: [RateLimitController, AdminBansController],
      providers: [AddressUnbans, PlanTableAudit],
    };
  }
}
