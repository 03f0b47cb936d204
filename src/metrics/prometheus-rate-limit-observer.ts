import type { RateLimitObserver, RateLimitRejection } from '@petstore/rate-limit';
import type { AppMetrics } from './app-metrics.js';

/** 429s counted by plan and reason. */
export class PrometheusRateLimitObserver implements RateLimitObserver {
  constructor(private readonly metrics: AppMetrics) {}

  rejected({ plan, reason }: RateLimitRejection): void {
    this.metrics.rateLimited.inc({ plan, reason });
  }
}
