import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { AppMetrics } from '../../metrics/app-metrics.js';
import { EventStore } from '../domain/ports.js';
import type { WebhookMetrics } from '../domain/webhook-metrics.js';

/** Delivery attempts by outcome, their latency, and the outbox lag (read from the database when scraped). */
@Injectable()
export class PrometheusWebhookMetrics implements WebhookMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly latency: Histogram;

  constructor(metrics: AppMetrics, events: EventStore) {
    const registers = [metrics.registry];
    this.attempts = new Counter({
      name: 'petstore_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered (2xx), retrying (will be tried again), failed (gave up)',
      labelNames: ['outcome'],
      registers,
    });
    this.latency = new Histogram({
      name: 'petstore_webhook_delivery_duration_seconds',
      help: 'Duration of webhook delivery attempts, until the response status or the failure',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    new Gauge({
      name: 'petstore_outbox_lag_seconds',
      help: 'Age of the oldest event not yet delivered to every endpoint due to receive it (0 when none)',
      registers,
      async collect() {
        this.set(await events.oldestUndeliveredAgeSeconds().catch(() => 0));
      },
    });
  }

  attempt(outcome: 'delivered' | 'retrying' | 'failed', seconds: number): void {
    this.attempts.inc({ outcome });
    this.latency.observe(seconds);
  }
}
