import { SchedulerRegistry } from '@nestjs/schedule';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The periodic sweeps and flushes run on @nestjs/schedule, registered by the composed application. */
describe('periodic jobs (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ USAGE_FLUSH_INTERVAL_MS: '10000' });
  });
  afterAll(() => t.close());

  it('registers the idempotency sweep, the events sweep, the key-usage sweep and flush, and the rate-limit counters sweep', () => {
    const intervals = t.app.get(SchedulerRegistry).getIntervals();
    expect(intervals).toEqual(
      expect.arrayContaining(['idempotency-sweep', 'events-sweep', 'key-usage-sweep', 'key-usage-flush']),
    );
    // The in-memory rate-limit storage's sweep is unnamed.
    expect(intervals).toHaveLength(5);
  });
});
