import { readFileSync } from 'node:fs';
import { SchedulerRegistry } from '@nestjs/schedule';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The job names in the table of docs/operations.md, "Periodic jobs". */
function documentedJobs(): string[] {
  const text = readFileSync('docs/operations.md', 'utf8');
  const section = text.slice(
    text.indexOf('## Periodic jobs'),
    text.indexOf('\n## ', text.indexOf('## Periodic jobs') + 1),
  );
  return [...section.matchAll(/^\| `([a-z0-9-]+)`/gm)].map((match) => match[1]);
}

/** The periodic sweeps and flushes run on @nestjs/schedule, registered by the composed application. */
describe('periodic jobs (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ USAGE_FLUSH_INTERVAL_MS: '10000' });
  });
  afterAll(() => t.close());

  it('names every job it schedules and lists each in docs/operations.md', () => {
    const registry = t.app.get(SchedulerRegistry);
    const jobs = [...registry.getIntervals(), ...registry.getTimeouts(), ...registry.getCronJobs().keys()];
    const documented = documentedJobs();
    expect(documented.length).toBeGreaterThan(0);
    // An unnamed @Interval is registered under a generated UUID: it would show here.
    expect(jobs.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('runs the service own sweeps and flushes', () => {
    expect(t.app.get(SchedulerRegistry).getIntervals()).toEqual(
      expect.arrayContaining([
        'idempotency-sweep',
        'events-sweep',
        'key-usage-sweep',
        'key-usage-flush',
        'rate-limit-sweep',
      ]),
    );
  });
});
