import { Logger } from '@nestjs/common';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlanTableService } from './plan-table.js';

const table = (freePerMinute: number | string) => `plans:
  free: { perMinute: ${freePerMinute}, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PlanTableService', () => {
  let file: string;
  let service: PlanTableService | undefined;
  const errors: string[] = [];

  beforeAll(() => {
    Logger.overrideLogger({
      log: () => undefined,
      warn: () => undefined,
      error: (m: unknown) => void errors.push(String(m)),
    });
  });
  beforeEach(() => {
    file = join(mkdtempSync(join(tmpdir(), 'plan-table-')), 'plans.yaml');
    writeFileSync(file, table(60));
    errors.length = 0;
  });
  afterEach(() => service?.close());

  it('refuses to start on a bad file, naming the entry', () => {
    writeFileSync(file, table('"sixty"'));
    expect(() => new PlanTableService({ file, required: true, overrides: {} })).toThrow(/plans\.free\.perMinute/);
  });

  it('reload picks up a changed file; env overrides still win', () => {
    service = new PlanTableService({ file, required: true, overrides: { pro: { perDay: 20_000 } } });
    writeFileSync(file, table(90));
    expect(service.reload('SIGHUP')).toBe(true);
    expect(service.limitsOf('free')).toEqual({ perMinute: 90, perDay: 1000 });
    expect(service.limitsOf('pro')).toEqual({ perMinute: 300, perDay: 20_000 });
  });

  it('a failed reload keeps the table in force and logs why', () => {
    service = new PlanTableService({ file, required: true, overrides: {} });
    writeFileSync(file, table(-1));
    expect(service.reload('SIGHUP')).toBe(false);
    expect(service.limitsOf('free')?.perMinute).toBe(60);
    expect(errors.join('\n')).toMatch(/keeping the current one: .*plans\.free\.perMinute/);
  });

  it('tells when the table in force was read and how the last reload went', () => {
    let now = new Date('2026-11-28T10:00:00Z');
    service = new PlanTableService({ file, required: true, overrides: {} }, undefined, () => now);
    expect(service.loads()).toEqual({ loadedAt: new Date('2026-11-28T10:00:00Z'), lastReload: null });
    now = new Date('2026-11-28T11:00:00Z');
    writeFileSync(file, table(-1));
    service.reload('SIGHUP');
    expect(service.loads()).toEqual({
      loadedAt: new Date('2026-11-28T10:00:00Z'),
      lastReload: { at: new Date('2026-11-28T11:00:00Z'), succeeded: false },
    });
    now = new Date('2026-11-28T12:00:00Z');
    writeFileSync(file, table(70));
    service.reload('SIGHUP');
    expect(service.loads()).toEqual({
      loadedAt: new Date('2026-11-28T12:00:00Z'),
      lastReload: { at: new Date('2026-11-28T12:00:00Z'), succeeded: true },
    });
  });

  it('watches the file: an edit applies without a signal', async () => {
    service = new PlanTableService({ file, required: true, overrides: {} });
    service.watch(20);
    await sleep(300); // the watcher takes its first look asynchronously; an edit before that is its baseline
    // A different size: file times are coarse, and an edit within the same tick changes only the size.
    writeFileSync(file, table(61) + '# edited\n');
    await eventually(() => service?.limitsOf('free')?.perMinute === 61);
  }, 15_000);

  it('watches the path, so a file replaced by rename (how editors save) is seen too', async () => {
    service = new PlanTableService({ file, required: true, overrides: {} });
    service.watch(20);
    await sleep(300);
    writeFileSync(`${file}.tmp`, table(62) + '# replaced by rename\n');
    renameSync(`${file}.tmp`, file);
    await eventually(() => service?.limitsOf('free')?.perMinute === 62);
  }, 15_000);
});
