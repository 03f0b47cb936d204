import type { RateLimitStorage } from './rate-limit.storage.js';

export interface RateLimitHealthStatus {
  readonly storage: 'memory' | 'redis';
  readonly healthy: boolean;
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
}
