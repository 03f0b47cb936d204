import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { RequestDurationHistogram } from './request-duration-histogram.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const NAME = 'http_request_duration_seconds';
const HELP = 'HTTP request duration by method, route template and status';

interface Observation {
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
}

/** The exposition text of both histograms after the same observations. */
async function exposed(observations: readonly Observation[]): Promise<{ ours: string; promClient: string }> {
  const ours = new RequestDurationHistogram(NAME, HELP, BUCKETS);
  const theirsRegistry = new Registry();
  const theirs = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [theirsRegistry],
  });
  for (const { method, route, status, seconds } of observations) {
    ours.observe(method, route, status, seconds);
    theirs.labels({ method, route, status: String(status) }).observe(seconds);
  }
  // The registry ends its text with a line break; a metric's block does not.
  return { ours: `${ours.exposition()}\n`, promClient: await theirsRegistry.metrics() };
}

const observation = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  route: fc.constantFrom('/pets', '/pets/:petId', 'unmatched', '/store/orders'),
  status: fc.constantFrom(200, 201, 304, 404, 429, 503),
  // Bounds themselves included: a value equal to a bound counts in that bucket.
  seconds: fc.oneof(fc.constantFrom(...BUCKETS, 0, 11), fc.double({ min: 0, max: 12, noNaN: true })),
});

describe('RequestDurationHistogram', () => {
  it("exposes exactly what prom-client's Histogram exposes for the same observations", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        const { ours, promClient } = await exposed(observations);
        expect(ours).toBe(promClient);
      }),
      { numRuns: 200 },
    );
  });

  it('escapes label values as prom-client does', async () => {
    const { ours, promClient } = await exposed([{ method: 'GET', route: '/a"b\\c\nd', status: 200, seconds: 0.1 }]);
    expect(ours).toContain('route="/a\\"b\\\\c\\nd"');
    expect(ours).toBe(promClient);
  });

  it('counts a request in the first bucket whose bound it does not exceed, and in +Inf', async () => {
    const { ours } = await exposed([{ method: 'GET', route: '/pets', status: 200, seconds: 0.01 }]);
    const line = (le: string) => `${NAME}_bucket{le="${le}",method="GET",route="/pets",status="200"}`;
    expect(ours).toContain(`${line('0.005')} 0`);
    expect(ours).toContain(`${line('0.01')} 1`);
    expect(ours).toContain(`${line('+Inf')} 1`);
    expect(ours).toContain(`${NAME}_count{method="GET",route="/pets",status="200"} 1`);
  });
});
