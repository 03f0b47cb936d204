import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  type HealthCheckResult,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import { Public } from '@petstore/auth';
import { ApiError } from '@petstore/errors';
import { ShutdownState } from '../lifecycle/shutdown-state.js';
import { DatabaseHealth, MIGRATIONS_PENDING } from './database.health.js';
import { RedisHealth } from './redis.health.js';

/**
 * Probes for orchestrators and load balancers: public, never rate limited, not
 * operations of the API document. Liveness asks nothing of the dependencies;
 * readiness asks each once (a short timeout each, in parallel).
 */
@ApiExcludeController()
@Controller('health')
@Public()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealth,
    private readonly redis: RedisHealth,
    private readonly shutdown: ShutdownState,
  ) {}

  /** The process serves HTTP. */
  @Get('live')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /**
   * Whether this instance can serve requests now. 503 SERVICE_UNAVAILABLE, naming
   * what failed, when PostgreSQL does not answer with every migration applied,
   * while shutting down (so traffic moves elsewhere before the server closes), or
   * when Redis is down and the limiter fails closed. With Redis down and the
   * limiter failing open (the default), requests are still served: 200, with
   * Redis named under `degraded`, so that an orchestrator routing by readiness
   * does not pull every instance at once over a Redis outage.
   */
  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  async ready(): Promise<ReadinessResult> {
    if (this.shutdown.draining) throw notReady(['shutting down']);
    const failsClosed = this.redis.required && !this.redis.failsOpen;
    const checks: HealthIndicatorFunction[] = [() => this.database.check('database')];
    if (failsClosed) checks.push(() => this.redis.check('redis'));
    const optional = this.redis.required && !failsClosed ? this.redis.check('redis') : null;
    let result: HealthCheckResult;
    try {
      result = await this.health.check(checks);
    } catch (error) {
      await optional;
      if (!(error instanceof ServiceUnavailableException)) throw error;
      throw notReady(failures(error.getResponse() as HealthCheckResult));
    }
    const redis = optional && (await optional);
    if (!redis || redis.redis.status === 'up') {
      return redis
        ? { ...result, info: { ...result.info, ...redis }, details: { ...result.details, ...redis } }
        : result;
    }
    const down = { redis: { status: 'down', message: 'not answering; rate limits counted per instance' } } as const;
    return { ...result, error: down, details: { ...result.details, ...down }, degraded: ['redis'] };
  }
}

/** Readiness with the fail-open dependencies that are down (the instance still serves). */
type ReadinessResult = HealthCheckResult & { degraded?: string[] };

/** What failed, in words safe to show anyone: no hosts, ports or driver messages. */
function failures(result: HealthCheckResult): string[] {
  if (result.status === 'shutting_down') return ['shutting down'];
  return Object.entries(result.error ?? {}).map(([name, detail]) => {
    const message = (detail as { message?: unknown }).message;
    const pending = typeof message === 'string' && message.startsWith(MIGRATIONS_PENDING);
    return `${name} (${pending ? MIGRATIONS_PENDING : 'not answering'})`;
  });
}

function notReady(problems: string[]): ApiError {
  return new ApiError(503, 'SERVICE_UNAVAILABLE', `Not ready: ${problems.join(', ')}`);
}
