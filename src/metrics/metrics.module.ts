import { Global, Module } from '@nestjs/common';
import { StoreMetrics } from '../orders/index.js';
import { AppMetrics } from './app-metrics.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';
import { PrometheusRateLimitObserver } from './prometheus-rate-limit-observer.js';
import { PrometheusStoreMetrics } from './prometheus-store-metrics.js';

/**
 * Prometheus metrics (prom-client): HTTP durations, 429s, store events, the
 * database pool, process metrics. Global, so that the store finds its port
 * (`StoreMetrics`) and the rate-limit options their 429 counter here.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    AppMetrics,
    MetricsServer,
    { provide: StoreMetrics, useClass: PrometheusStoreMetrics },
    {
      provide: PrometheusRateLimitObserver,
      inject: [AppMetrics],
      useFactory: (m: AppMetrics) => new PrometheusRateLimitObserver(m),
    },
  ],
  exports: [AppMetrics, MetricsServer, StoreMetrics, PrometheusRateLimitObserver],
})
export class MetricsModule {}
