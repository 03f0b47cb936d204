import { ByRouteMethodStatus } from './by-route-method-status.js';

interface Series {
  /** The series' labels as exposed, escaped once: `method="GET",route="/pets",status="200"`. */
  readonly labels: string;
  /** Observations per bucket, not cumulative; the last slot holds those above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * The histogram of request durations by method, route template and status, counted
 * with three Map lookups and three additions per request. prom-client's `Histogram`
 * does several times that on every `observe` (it checks the labels, builds a key
 * string from them, and turns the bucket bound into a property name twice): ~4 % of
 * a read's CPU (docs/performance.md).
 *
 * prom-client's public API has no way to hand a registry counts kept elsewhere (a
 * `Histogram` takes one observation at a time), so this one is not in the registry:
 * it writes its own block of the Prometheus text exposition format (0.0.4, the
 * registry's default content type), which `AppMetrics.scrape` puts before the
 * registry's `metrics()`. The block is exactly what prom-client's registry writes
 * for a `Histogram` with the same buckets after the same observations
 * (request-duration-histogram.spec.ts holds it to that).
 */
export class RequestDurationHistogram {
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
      labels: `method="${labelValue(method)}",route="${labelValue(route)}",status="${status}"`,
      counts: new Float64Array(this.bounds.length + 1),
      sum: 0,
      count: 0,
    };
    this.series.push(series);
    return series;
  }

  /**
   * The metric's block of the text format, without a final line break (blocks are
   * separated by a blank line): `# HELP`, `# TYPE`, then for each series its
   * cumulative buckets, `+Inf`, sum and count.
   */
  exposition(): string {
    const name = escape(this.name);
    const lines = [`# HELP ${name} ${escape(this.help)}`, `# TYPE ${name} histogram`];
    for (const { labels, counts, sum, count } of this.series) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts[i];
        lines.push(`${name}_bucket{le="${bound}",${labels}} ${cumulative}`);
      });
      lines.push(
        `${name}_bucket{le="+Inf",${labels}} ${count}`,
        `${name}_sum{${labels}} ${sampleValue(sum)}`,
        `${name}_count{${labels}} ${count}`,
      );
    }
    return lines.join('\n');
  }
}

/** A metric name or help text in the text format: backslash and line feed escaped. */
function escape(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A label value in the text format: backslash, line feed and double quote escaped. */
function labelValue(text: string): string {
  return escape(text).replace(/"/g, '\\"');
}

/** A sample value in the text format (`+Inf`, `-Inf` and `Nan` spelled as prom-client spells them). */
function sampleValue(value: number): string {
  if (Number.isNaN(value)) return 'Nan';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
