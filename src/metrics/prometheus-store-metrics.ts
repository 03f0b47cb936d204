import { Injectable } from '@nestjs/common';
import type { StoreMetrics } from '../orders/index.js';
import { AppMetrics } from './app-metrics.js';

/** The store's events as Prometheus counters. */
@Injectable()
export class PrometheusStoreMetrics implements StoreMetrics {
  constructor(private readonly metrics: AppMetrics) {}

  orderPlaced(): void {
    this.metrics.ordersPlaced.inc();
  }
  orderCompleted(): void {
    this.metrics.ordersCompleted.inc();
  }
  orderCancelled(): void {
    this.metrics.ordersCancelled.inc();
  }
  stockOut(): void {
    // Not labelled by pet: one series per pet would grow without bound.
    this.metrics.stockOuts.inc();
  }
}
