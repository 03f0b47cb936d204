import type { Histogram } from 'prom-client';
import { ByRouteMethodStatus } from './by-route-method-status.js';

/** The labels of a request's duration, in the order they are exposed. */
export interface RequestLabels {
  readonly method: string;
  readonly route: string;
  readonly status: string;
}

interface Series {
  readonly labels: RequestLabels;
  /** Observations per bucket, not cumulative; the last slot holds those above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** A sample as prom-client's registry reads it from a metric's `get()`. */
interface Sample {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly metricName: string;
}

/**
 * The histogram of request durations by method, route template and status, counted
 * with three Map lookups and three additions per request. prom-client's `Histogram`
 * does several times that on every `observe` (it checks the labels, builds a key
 * string from them, and turns the bucket bound into a property name twice): ~4 % of
 * a read's CPU (docs/performance.md). This one is a collector of prom-client's
 * registry (`name`, `help`, `type`, `aggregator`, `get`, `reset`: what the registry
 * reads), and exposes exactly what a prom-client `Histogram` with the same buckets
 * exposes for the same observations (request-duration-histogram.spec.ts holds it
 * to that).
 */
export class RequestDurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** Every series, in the order first seen (the order a prom-client `Histogram` exposes them in). */
  private readonly series: Series[] = [];
  /** The series by route, method and status. */
  private readonly byRequest = new ByRouteMethodStatus<Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** Counts one request of `seconds`. */
  observe(method: string, route: string, status: number, seconds: number): void {
    let series = this.byRequest.get(route, method, status);
    if (series === undefined)
      this.byRequest.set(route, method, status, (series = this.newSeries(method, route, status)));
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]) bucket += 1;
    series.counts[bucket] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  private newSeries(method: string, route: string, status: number): Series {
    const series = {
      labels: { method, route, status: String(status) },
      counts: new Float64Array(this.bounds.length + 1),
      sum: 0,
      count: 0,
    };
    this.series.push(series);
    return series;
  }

  /** The samples, as prom-client's `Histogram.get()` gives them: cumulative buckets, `+Inf`, sum and count. */
  get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Sample[] }> {
    const values: Sample[] = [];
    for (const { labels, counts, sum, count } of this.series) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts[i];
        values.push({ value: cumulative, labels: { le: bound, ...labels }, metricName: `${this.name}_bucket` });
      });
      values.push(
        { value: count, labels: { le: '+Inf', ...labels }, metricName: `${this.name}_bucket` },
        { value: sum, labels: { ...labels }, metricName: `${this.name}_sum` },
        { value: count, labels: { ...labels }, metricName: `${this.name}_count` },
      );
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    this.series.length = 0;
    this.byRequest.clear();
  }

  /** For `Registry.registerMetric`, whose type lists prom-client's own classes only; it reads what `get` gives. */
  asRegistryMetric(): Histogram<keyof RequestLabels> {
    return this as unknown as Histogram<keyof RequestLabels>;
  }
}
