import { Logger } from '@nestjs/common';
import type { ApiKey } from '@petstore/auth';
import type { HitRequest, HitResult } from './fixed-window.js';
import { MemoryRateLimitStorage } from './memory.storage.js';
import { PlanTableService } from './plan-table.js';
import { DEFAULT_PLAN_TABLE, type PlanTable } from './plan.js';
import { clientId, RateLimiter, type RateLimiterSettings } from './rate-limiter.js';
import { RateLimitStorageUnavailableError } from './rate-limit.storage.js';

function key(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 7,
    name: 'k',
    prefix: 'psk_abcdefgh',
    plan: 'free',
    scopes: ['read'],
    limits: null,
    createdAt: new Date(Date.UTC(2026, 0, 1)),
    revokedAt: null,
    ...overrides,
  };
}

/** A storage that is down until told otherwise. */
class FlakyStorage extends MemoryRateLimitStorage {
  override readonly kind = 'memory';
  down = true;
  unbanned: string[] = [];
  override async hit(client: string, request: HitRequest): Promise<HitResult> {
    if (this.down) throw new RateLimitStorageUnavailableError('connect ECONNREFUSED 127.0.0.1:6379');
    return super.hit(client, request);
  }
  override async unban(client: string): Promise<void> {
    this.unbanned.push(client);
    return super.unban(client);
  }
  override isHealthy(): boolean {
    return !this.down;
  }
}

const SETTINGS: RateLimiterSettings = { failOpen: true, banThresholdMultiplier: 3, banDurationSeconds: 900 };
const plans = (table: PlanTable = DEFAULT_PLAN_TABLE) =>
  new PlanTableService({ file: '', required: false, overrides: {} }, () => table);

describe('RateLimiter', () => {
  const warnings: string[] = [];
  beforeAll(() => {
    Logger.overrideLogger({
      log: () => undefined,
      error: () => undefined,
      warn: (m: unknown) => void warnings.push(String(m)),
    });
  });
  beforeEach(() => (warnings.length = 0));

  describe('limitsFor', () => {
    const limiter = new RateLimiter(plans(), new MemoryRateLimitStorage(), SETTINGS, null);
    it.each([
      ['free', { perMinute: 60, perDay: 1_000 }],
      ['pro', { perMinute: 300, perDay: 10_000 }],
      ['business', { perMinute: 1_000, perDay: 100_000 }],
    ])('gives a %s key its plan quotas', (plan, limits) => {
      expect(limiter.limitsFor({ kind: 'key', key: key({ plan }) })).toEqual(limits);
    });
    it('gives an enterprise key its own limits', () => {
      const limits = { perMinute: 5, perDay: 50 };
      expect(limiter.limitsFor({ kind: 'key', key: key({ plan: 'enterprise', limits }) })).toEqual(limits);
    });
    it('counts an address under the free plan', () => {
      expect(limiter.limitsFor({ kind: 'address', address: '203.0.113.7' })).toEqual({ perMinute: 60, perDay: 1_000 });
    });
    it('falls back to free for an enterprise key without limits or an unknown plan (fails safe)', () => {
      expect(limiter.limitsFor({ kind: 'key', key: key({ plan: 'enterprise' }) }).perMinute).toBe(60);
      expect(limiter.limitsFor({ kind: 'key', key: key({ plan: 'gold' }) }).perMinute).toBe(60);
    });
    it('sets the ban threshold at multiplier × per-minute quota', () => {
      expect(limiter.requestFor({ kind: 'key', key: key({ plan: 'pro' }) }, true).ban).toEqual({
        threshold: 900,
        durationMs: 900_000,
        windowMs: 60_000,
      });
    });
  });

  it('names a key by id and creation time, an address by itself', () => {
    expect(clientId({ kind: 'key', key: key() })).toBe(`k7.${Date.UTC(2026, 0, 1).toString(36)}`);
    expect(clientId({ kind: 'address', address: '2001:db8:0:0::/64' })).toBe('ip:2001:db8:0:0::/64');
  });

  describe('when the storage is unreachable', () => {
    it('fails open: serves, counting in the process, and warns (not on every request)', async () => {
      const storage = new FlakyStorage();
      const limiter = new RateLimiter(plans(), storage, SETTINGS, new MemoryRateLimitStorage());
      const client = { kind: 'key', key: key({ plan: 'enterprise', limits: { perMinute: 2, perDay: 10 } }) } as const;
      const outcomes = [];
      for (let i = 0; i < 3; i++) outcomes.push((await limiter.check(client)).outcome);
      expect(outcomes).toEqual(['allowed', 'allowed', 'limited']);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('ECONNREFUSED');
      expect(warnings[0]).toContain('RATE_LIMIT_FAIL_OPEN=true');
      storage.down = false;
      expect((await limiter.check(client)).windows[0].remaining).toBe(1); // back on the shared counters
    });

    it('fails closed when configured: the error reaches the caller (answered 503)', async () => {
      const limiter = new RateLimiter(
        plans(),
        new FlakyStorage(),
        { ...SETTINGS, failOpen: false },
        new MemoryRateLimitStorage(),
      );
      await expect(limiter.check({ kind: 'address', address: '203.0.113.7' })).rejects.toBeInstanceOf(
        RateLimitStorageUnavailableError,
      );
      expect(warnings[0]).toContain('RATE_LIMIT_FAIL_OPEN=false');
    });

    it('reads the plan table at each request, so a reload applies at once', async () => {
      let table: PlanTable = DEFAULT_PLAN_TABLE;
      const service = new PlanTableService({ file: '', required: false, overrides: {} }, () => table);
      const limiter = new RateLimiter(service, new MemoryRateLimitStorage(), SETTINGS, null);
      const client = { kind: 'key', key: key() } as const;
      expect((await limiter.check(client)).binding.limit).toBe(60);
      table = { ...DEFAULT_PLAN_TABLE, free: { perMinute: 5, perDay: 50 } };
      service.reload('test');
      const decision = await limiter.check(client);
      expect(decision.binding).toMatchObject({ limit: 5, remaining: 3 });
    });
  });

  it('unban lifts the ban in the shared storage and in the fallback', async () => {
    const storage = new FlakyStorage();
    storage.down = false;
    const fallback = new FlakyStorage();
    fallback.down = false;
    const limiter = new RateLimiter(plans(), storage, SETTINGS, fallback);
    await limiter.unban(key());
    expect(storage.unbanned).toEqual([clientId({ kind: 'key', key: key() })]);
    expect(fallback.unbanned).toEqual(storage.unbanned);
  });
});
