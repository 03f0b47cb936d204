import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { HealthIndicatorService } from '@nestjs/terminus';
import { RateLimitHealth } from '@petstore/rate-limit';
import { appConfig } from '../config/app.config.js';
import { HEALTH_CHECK_TIMEOUT_MS } from './health-limits.js';

/** Redis, the shared rate-limit counters, answers a PING (checked only when REDIS_URL is set). */
@Injectable()
export class RedisHealth {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly rateLimit: RateLimitHealth,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  /** Whether the service uses Redis at all. */
  get required(): boolean {
    return this.config.rateLimit.enabled && this.config.rateLimit.redisUrl !== undefined;
  }

  /** Whether requests are served (counted per instance) while Redis is down. */
  get failsOpen(): boolean {
    return this.config.rateLimit.failOpen;
  }

  check<const Key extends string>(key: Key) {
    return this.indicator
      .check(key)
      .attempt(async () => {
        const probe = await this.rateLimit.probe();
        if (!probe.healthy) throw new Error(probe.problem ?? 'not answering');
      })
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }
}
