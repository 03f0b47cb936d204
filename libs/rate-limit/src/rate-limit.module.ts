import { type DynamicModule, Logger, Module, type ModuleMetadata, type Provider } from '@nestjs/common';
import { ApiKeyResolver } from '@petstore/auth';
import { MemoryRateLimitStorage } from './memory.storage.js';
import { PlanTableService } from './plan-table.js';
import type { PlanSource } from './plans-file.js';
import { RateLimitHealth } from './rate-limit-health.js';
import { DEFAULT_EXEMPT_PATHS, RateLimitMiddleware } from './rate-limit.middleware.js';
import { RATE_LIMIT_OBSERVER, type RateLimitObserver } from './rate-limit.observer.js';
import { RATE_LIMIT_STORAGE, type RateLimitStorage } from './rate-limit.storage.js';
import { RateLimiter } from './rate-limiter.js';
import { RedisRateLimitStorage } from './redis.storage.js';

export interface RateLimitOptions {
  /** false turns the limiter off entirely (benchmarks only: the contract requires it). */
  readonly enabled: boolean;
  readonly plans: PlanSource;
  /** How often the plans file is checked for changes, in ms; 0 disables watching. */
  readonly watchIntervalMs: number;
  /** Shared counters in Redis; unset: counters in this process. */
  readonly redisUrl: string | undefined;
  readonly redisKeyPrefix: string;
  readonly failOpen: boolean;
  readonly banThresholdMultiplier: number;
  readonly banDurationSeconds: number;
  /** Paths reported on but never counted (health probes). */
  readonly exemptPaths?: readonly string[];
}

export const RATE_LIMIT_OPTIONS = Symbol('RateLimitOptions');

export interface RateLimitModuleAsyncOptions {
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: NonNullable<Extract<Provider, { useFactory: unknown }>['inject']>;
  readonly useFactory: (...args: never[]) => RateLimitOptions;
}

/**
 * Plans and rate limits (API.md section 5). Provides the plan table, the storage
 * (memory or Redis), the limiter, its health, and the Express middleware that
 * `configureApp` mounts ahead of the body parser. Needs `ApiKeyResolver`
 * (from `AuthModule`, global); reports refusals to `RATE_LIMIT_OBSERVER` when
 * a global module provides one.
 */
@Module({})
export class RateLimitModule {
  static forRootAsync(options: RateLimitModuleAsyncOptions): DynamicModule {
    const logger = new Logger('RateLimit');
    const providers: Provider[] = [
      { provide: RATE_LIMIT_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
      {
        provide: PlanTableService,
        inject: [RATE_LIMIT_OPTIONS],
        useFactory: (o: RateLimitOptions) => {
          const plans = new PlanTableService(o.plans);
          if (o.enabled && o.watchIntervalMs > 0) plans.watch(o.watchIntervalMs);
          return plans;
        },
      },
      {
        provide: RATE_LIMIT_STORAGE,
        inject: [RATE_LIMIT_OPTIONS],
        useFactory: (o: RateLimitOptions): RateLimitStorage => {
          if (!o.redisUrl || !o.enabled) return new MemoryRateLimitStorage();
          return new RedisRateLimitStorage({
            url: o.redisUrl,
            keyPrefix: o.redisKeyPrefix,
            onHealthChange: (healthy, detail) =>
              healthy
                ? logger.log(`Redis rate-limit storage ready (${detail})`)
                : logger.warn(`Redis rate-limit storage unavailable: ${detail}`),
          });
        },
      },
      {
        provide: RateLimiter,
        inject: [PlanTableService, RATE_LIMIT_STORAGE, RATE_LIMIT_OPTIONS],
        useFactory: (plans: PlanTableService, storage: RateLimitStorage, o: RateLimitOptions) =>
          new RateLimiter(plans, storage, o, storage.kind === 'memory' ? null : new MemoryRateLimitStorage()),
      },
      {
        provide: RateLimitHealth,
        inject: [RATE_LIMIT_STORAGE],
        useFactory: (s: RateLimitStorage) => new RateLimitHealth(s),
      },
      {
        provide: RateLimitMiddleware,
        inject: [RateLimiter, ApiKeyResolver, RATE_LIMIT_OPTIONS, { token: RATE_LIMIT_OBSERVER, optional: true }],
        useFactory: (
          limiter: RateLimiter,
          resolver: ApiKeyResolver,
          o: RateLimitOptions,
          observer: RateLimitObserver | undefined,
        ) => new RateLimitMiddleware(limiter, resolver, o.exemptPaths ?? DEFAULT_EXEMPT_PATHS, observer ?? null),
      },
    ];
    return {
      module: RateLimitModule,
      global: true,
      imports: options.imports ?? [],
      providers,
      exports: [
        RATE_LIMIT_OPTIONS,
        PlanTableService,
        RATE_LIMIT_STORAGE,
        RateLimiter,
        RateLimitHealth,
        RateLimitMiddleware,
      ],
    };
  }
}
