import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { ApiKeyResolver } from '@petstore/auth';
import { DATABASE_LIMITS } from '../database/index.js';
import { readPoolStats } from './db-pool.js';
import { RequestDurationHistogram } from '../platform/request-duration-histogram.js';

/** A counter that reports a running total kept elsewhere (read when scraped, so the hot path only increments a number). */
function countFrom(registry: Registry, name: string, help: string, total: () => number): void {
  let reported = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = total();
      this.inc(now - reported);
      reported = now;
    },
  });
}

/** Label of requests whose path no route serves (404), so that scanners cannot blow up the label set. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds: from fast reads (a few ms) to the slowest the timeouts allow (~6 s). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Every metric of one application instance, in a registry of its own (not
 * prom-client's global one, so several apps in one process, as in the tests, keep
 * separate counts), with Node's default process metrics; the request duration
 * histogram beside it (`scrape`). The registry keeps its default content type, the
 * Prometheus text format the histogram writes.
 */
@Injectable()
export class AppMetrics {
  readonly registry = new Registry();

  readonly requestDuration = new RequestDurationHistogram(
    'http_request_duration_seconds',
    'HTTP request duration by method, route template and status',
    DURATION_BUCKETS,
  );

  readonly rateLimited = new Counter({
    name: 'petstore_rate_limited_requests_total',
    help: 'Requests refused with 429, by plan (anonymous: no valid key) and reason (RATE_LIMIT_EXCEEDED, API_KEY_BANNED)',
    labelNames: ['plan', 'reason'] as const,
    registers: [this.registry],
  });

  readonly ordersPlaced = new Counter({
    name: 'petstore_orders_placed_total',
    help: 'Orders placed (idempotent replays not counted)',
    registers: [this.registry],
  });

  readonly ordersCompleted = new Counter({
    name: 'petstore_orders_completed_total',
    help: 'Orders completed (fulfilled)',
    registers: [this.registry],
  });

  readonly ordersCancelled = new Counter({
    name: 'petstore_orders_cancelled_total',
    help: 'Open orders cancelled (their units returned to stock)',
    registers: [this.registry],
  });

  readonly stockOuts = new Counter({
    name: 'petstore_stock_outs_total',
    help: "Orders that took a pet's stock to 0",
    registers: [this.registry],
  });

  constructor(dataSource: DataSource, keys: ApiKeyResolver) {
    collectDefaultMetrics({ register: this.registry });
    countFrom(
      this.registry,
      'petstore_api_key_lookup_failures_total',
      'API key lookups the key store failed to answer',
      () => keys.stats.lookupFailures,
    );
    countFrom(
      this.registry,
      'petstore_api_key_stale_served_total',
      'Requests served from an expired API key entry because the key store could not answer (stale-if-error)',
      () => keys.stats.staleServed,
    );
    const pool = () => readPoolStats(dataSource);
    new Gauge({
      name: 'petstore_db_pool_in_use',
      help: 'PostgreSQL pool connections checked out by a query or transaction',
      registers: [this.registry],
      collect() {
        const stats = pool();
        this.set(stats ? stats.total - stats.idle : 0);
      },
    });
    new Gauge({
      name: 'petstore_db_pool_idle',
      help: 'PostgreSQL pool connections open and idle',
      registers: [this.registry],
      collect() {
        this.set(pool()?.idle ?? 0);
      },
    });
    new Gauge({
      name: 'petstore_db_pool_waiting',
      help: 'Requests waiting for a free PostgreSQL pool connection',
      registers: [this.registry],
      collect() {
        this.set(pool()?.waiting ?? 0);
      },
    });
    new Gauge({
      name: 'petstore_db_pool_max',
      help: 'Most connections the PostgreSQL pool opens',
      registers: [this.registry],
    }).set(DATABASE_LIMITS.POOL_MAX);
  }

  /**
   * Records a request's duration once its response is sent (told by the request
   * logger's one listener, `HttpLogging.observe`); a response cut off by a lost
   * connection is not timed.
   */
  readonly recordRequest = (req: Request, res: Response, route: string | undefined, durationMs: number): void => {
    if (!res.writableFinished) return;
    this.requestDuration.observe(req.method, route ?? UNMATCHED_ROUTE, res.statusCode, durationMs / 1000);
  };

  /**
   * The exposition text (Prometheus format) and its content type: the request
   * duration histogram's block (kept outside the registry, see
   * `RequestDurationHistogram`), then the registry's metrics, blocks separated by
   * a blank line as the registry separates its own.
   */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const registered = await this.registry.metrics();
    return { contentType: this.registry.contentType, body: `${this.requestDuration.exposition()}\n\n${registered}` };
  }
}
