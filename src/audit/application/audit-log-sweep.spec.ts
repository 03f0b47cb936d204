import { InMemoryAuditLogRepository } from '../../../test/fakes/index.js';
import { loadAppConfig } from '../../config/app.config.js';
import { InMemoryUnitOfWork } from '../../../test/fakes/index.js';
import { InMemoryTables } from '../../../test/fakes/index.js';
import { AUDIT_SWEEP_BATCH, AuditLogSweep } from './audit-log-sweep.js';
import { AuditTrailService } from './audit-trail.service.js';

const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-11-28T12:00:00Z');

describe('AuditLogSweep', () => {
  let log: InMemoryAuditLogRepository;
  let at: number;
  let trail: AuditTrailService;

  beforeEach(() => {
    const tables = new InMemoryTables();
    log = new InMemoryAuditLogRepository(tables);
    at = NOW;
    trail = new AuditTrailService(log, new InMemoryUnitOfWork(tables), { now: () => new Date(at) });
  });

  const sweep = (env: Record<string, string> = {}) =>
    new AuditLogSweep(log, loadAppConfig(env), { now: () => new Date(NOW) }).sweep();

  async function recordAt(daysAgo: number, id: string): Promise<void> {
    at = NOW - daysAgo * DAY_MS;
    await trail.recordApplied({
      actor: { type: 'cli' },
      action: 'api_key.revoked',
      target: { type: 'api_key', id },
      changes: {},
    });
  }

  it('deletes the entries older than AUDIT_RETENTION_DAYS (400 by default) and keeps the others', async () => {
    await recordAt(401, 'old');
    await recordAt(400.01, 'just past');
    await recordAt(399.99, 'just within');
    await recordAt(0, 'today');
    expect(await sweep()).toBe(2);
    expect(log.entries.map((e) => e.target.id)).toEqual(['just within', 'today']);
  });

  it('honours a shorter retention', async () => {
    await recordAt(31, 'a month ago');
    await recordAt(29, 'last month');
    expect(await sweep({ AUDIT_RETENTION_DAYS: '30' })).toBe(1);
    expect(log.entries.map((e) => e.target.id)).toEqual(['last month']);
  });

  it('deletes in batches until none is left, however many are due', async () => {
    for (let i = 0; i < AUDIT_SWEEP_BATCH * 2 + 5; i++) await recordAt(500, String(i));
    await recordAt(1, 'kept');
    const batches: number[] = [];
    const deleteBatchBefore = log.deleteBatchBefore.bind(log);
    log.deleteBatchBefore = async (before, batch) => {
      const deleted = await deleteBatchBefore(before, batch);
      batches.push(deleted);
      return deleted;
    };
    expect(await sweep()).toBe(AUDIT_SWEEP_BATCH * 2 + 5);
    expect(batches).toEqual([AUDIT_SWEEP_BATCH, AUDIT_SWEEP_BATCH, 5]);
    expect(log.entries.map((e) => e.target.id)).toEqual(['kept']);
  });

  it('logs a failure and resolves with what it deleted, to try again at the next sweep', async () => {
    await recordAt(500, 'old');
    log.deleteBatchBefore = () => Promise.reject(new Error('database unavailable'));
    await expect(sweep()).resolves.toBe(0);
  });
});
