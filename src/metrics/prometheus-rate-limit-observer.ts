import type { AppMetrics } from './app-metrics.js';

/** A 429: the plan of the key refused (`anonymous` without a valid key), and why. */
export interface RateLimitRejection {
  readonly plan: string;
  readonly reason: 'RATE_LIMIT_EXCEEDED' | 'API_KEY_BANNED';
}

/** 429s counted by plan and reason. */
export class PrometheusRateLimitObserver {
  constructor(private readonly metrics: AppMetrics) {}

  rejected({ plan, reason }: RateLimitRejection): void {
    this.metrics.rateLimited.inc({ plan, reason });
  }
}
