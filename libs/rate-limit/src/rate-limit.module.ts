import { type DynamicModule, Logger, Module, type ModuleMetadata, type Provider } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule, DiscoveryService, Reflector } from '@nestjs/core';
import { MemoryRateLimitStorage, type MemoryStorageOptions } from './memory.storage.js';
import { RateLimitHealth } from './rate-limit-health.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimitMiddleware } from './rate-limit.middleware.js';
import type { RateLimitClient, RateLimitOptions } from './rate-limit.options.js';
import type { RateLimitStorage } from './rate-limit.storage.js';
import { RateLimiter } from './rate-limiter.js';
import { RedisRateLimitStorage } from './redis.storage.js';
import { ThrottledRoutes } from './throttled-routes.js';
import { THROTTLER_PREFIX, ThrottlerStorageAdapter } from './throttler-storage.adapter.js';

// Tokens private to this module, not ports: nothing outside it binds or injects them, and
// which storage serves (memory or Redis, and a fallback or none) is decided from the options
// at start, a factory's work. The service's ports are abstract classes; these stay symbols.
const OPTIONS = Symbol('RateLimitOptions');
const STORAGE = Symbol('RateLimitStorage');
/** Counts in this process while a shared storage is unreachable (fail open); null over a memory storage. */
const FALLBACK_STORAGE = Symbol('FallbackRateLimitStorage');

/**
 * The bound of the in-process counters: anonymous clients (`isAnonymousId`), and the route
 * windows the throttler adapter keeps for them (`throttler:<client id>:…`), are evictable.
 */
function memoryOptions(o: RateLimitOptions): MemoryStorageOptions {
  const anonymous = o.isAnonymousId;
  return {
    maxAnonymousClients: o.maxAnonymousClients,
    isAnonymous: anonymous
      ? (id) => anonymous(id.startsWith(THROTTLER_PREFIX) ? id.slice(THROTTLER_PREFIX.length) : id)
      : undefined,
  };
}

/**
 * Plans and rate limits. Provides the limiter (over a memory or Redis storage), its
 * health, the Express middleware that the application mounts ahead of its body
 * parser (it counts the plan for every request), and the global `RateLimitGuard`
 * (`@Throttle` / `@SkipThrottle` on routes). Everything app-specific — who a
 * client is, the plan table, exempt paths, the errors — comes from `useFactory`.
 * In-memory counters are swept by an `@Interval`: the application imports
 * `ScheduleModule.forRoot()` from `@nestjs/schedule`.
 */
@Module({})
export class RateLimitModule {
  static forRootAsync<Client extends RateLimitClient>(options: {
    readonly imports?: ModuleMetadata['imports'];
    readonly inject?: NonNullable<Extract<Provider, { useFactory: unknown }>['inject']>;
    readonly useFactory: (...args: never[]) => RateLimitOptions<Client> | Promise<RateLimitOptions<Client>>;
  }): DynamicModule {
    const logger = new Logger('RateLimit');
    const providers: Provider[] = [
      { provide: OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
      {
        provide: STORAGE,
        inject: [OPTIONS],
        useFactory: (o: RateLimitOptions): RateLimitStorage | Promise<RateLimitStorage> => {
          const { redis } = o;
          if (!redis) return new MemoryRateLimitStorage(o.now, memoryOptions(o));
          return RedisRateLimitStorage.connect({
            url: redis.url,
            keyPrefix: redis.keyPrefix,
            onHealthChange: (healthy, detail) =>
              healthy
                ? logger.log(`Redis rate-limit storage ready (${detail})`)
                : logger.warn(`Redis rate-limit storage unavailable: ${detail}`),
          });
        },
      },
      {
        provide: FALLBACK_STORAGE,
        inject: [STORAGE, OPTIONS],
        useFactory: (storage: RateLimitStorage, o: RateLimitOptions) =>
          storage.kind === 'memory' ? null : new MemoryRateLimitStorage(o.now, memoryOptions(o)),
      },
      {
        provide: RateLimiter,
        inject: [STORAGE, OPTIONS, FALLBACK_STORAGE],
        useFactory: (storage: RateLimitStorage, o: RateLimitOptions, fallback: RateLimitStorage | null) =>
          new RateLimiter(o.quotaOf, storage, o, fallback, o.now),
      },
      { provide: RateLimitHealth, inject: [STORAGE], useFactory: (s: RateLimitStorage) => new RateLimitHealth(s) },
      {
        provide: ThrottledRoutes,
        inject: [DiscoveryService, Reflector],
        useFactory: (d: DiscoveryService, r: Reflector) => new ThrottledRoutes(d, r),
      },
      {
        provide: RateLimitMiddleware,
        inject: [RateLimiter, OPTIONS, ThrottledRoutes],
        useFactory: (limiter: RateLimiter, o: RateLimitOptions, routes: ThrottledRoutes) =>
          new RateLimitMiddleware(limiter, o, routes),
      },
      {
        provide: APP_GUARD,
        inject: [ThrottledRoutes, RateLimiter, OPTIONS, Reflector],
        useFactory: (routes: ThrottledRoutes, limiter: RateLimiter, o: RateLimitOptions, reflector: Reflector) =>
          new RateLimitGuard(routes, new ThrottlerStorageAdapter(limiter), o, reflector),
      },
    ];
    return {
      module: RateLimitModule,
      global: true,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers,
      exports: [RateLimiter, RateLimitHealth, RateLimitMiddleware],
    };
  }
}
