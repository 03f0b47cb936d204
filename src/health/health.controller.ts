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
   * PostgreSQL answers with every migration applied, and Redis answers when
   * REDIS_URL is set; else 503 SERVICE_UNAVAILABLE naming what failed. Also 503
   * while shutting down, so that traffic moves elsewhere before the server closes.
   */
  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  async ready(): Promise<HealthCheckResult> {
    if (this.shutdown.draining) throw notReady(['shutting down']);
    const checks: HealthIndicatorFunction[] = [() => this.database.check('database')];
    if (this.redis.required) checks.push(() => this.redis.check('redis'));
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      throw notReady(failures(error.getResponse() as HealthCheckResult));
    }
  }
}

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
