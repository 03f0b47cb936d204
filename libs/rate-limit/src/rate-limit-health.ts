import type { RateLimitStorage } from './rate-limit.storage.js';

export interface RateLimitHealthStatus {
  readonly storage: 'memory' | 'redis';
  readonly healthy: boolean;
}

/** The outcome of one probe of the counter storage. */
export interface RateLimitHealthProbe extends RateLimitHealthStatus {
  /** Why it did not answer (for logs; it may name hosts and ports). */
  readonly problem?: string;
}

/**
 * For the readiness check: whether the counter storage answers. With Redis down
 * the service still serves (when failing open) but should report itself degraded.
 */
export class RateLimitHealth {
  constructor(private readonly storage: RateLimitStorage) {}

  isHealthy(): boolean {
    return this.storage.isHealthy();
  }

  status(): RateLimitHealthStatus {
    return { storage: this.storage.kind, healthy: this.storage.isHealthy() };
  }

  /** Asks the storage once (Redis: one PING, bounded by its command timeout). */
  async probe(): Promise<RateLimitHealthProbe> {
    try {
      await this.storage.ping();
      return { storage: this.storage.kind, healthy: true };
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      const detail = (error as { detail?: unknown }).detail;
      return { storage: this.storage.kind, healthy: false, problem: typeof detail === 'string' ? detail : problem };
    }
  }
}
