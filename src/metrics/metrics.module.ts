import { Global, Module } from '@nestjs/common';
import { RATE_LIMIT_OBSERVER } from '@petstore/rate-limit';
import { STORE_METRICS } from '../orders/index.js';
import { AppMetrics } from './app-metrics.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';
import { PrometheusRateLimitObserver } from './prometheus-rate-limit-observer.js';
import { PrometheusStoreMetrics } from './prometheus-store-metrics.js';

/**
 * Prometheus metrics (prom-client): HTTP durations, 429s, store events, the
 * database pool, process metrics. Global, so that the store and the rate limiter
 * find their ports (`STORE_METRICS`, `RATE_LIMIT_OBSERVER`) bound here.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    AppMetrics,
    MetricsServer,
    { provide: STORE_METRICS, inject: [AppMetrics], useFactory: (m: AppMetrics) => new PrometheusStoreMetrics(m) },
    {
      provide: RATE_LIMIT_OBSERVER,
      inject: [AppMetrics],
      useFactory: (m: AppMetrics) => new PrometheusRateLimitObserver(m),
    },
  ],
  exports: [AppMetrics, MetricsServer, STORE_METRICS, RATE_LIMIT_OBSERVER],
})
export class MetricsModule {}
