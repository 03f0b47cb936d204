import { Logger } from '@nestjs/common';
import type { HitRequest, HitResult } from './fixed-window.js';
import { MemoryRateLimitStorage } from './memory.storage.js';
import type { RateLimitClient, RateLimitQuota } from './rate-limit.options.js';
import { RateLimiter, type RateLimiterSettings } from './rate-limiter.js';
import { RateLimitStorageUnavailableError } from './rate-limit.storage.js';

type PlanTable = Readonly<Record<string, RateLimitQuota>>;

/** The seed's plans, as the application would hand them in. */
const SEED_PLANS: PlanTable = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

function client(overrides: Partial<RateLimitClient> = {}): RateLimitClient {
  return { id: 'k7', plan: 'free', limits: null, ...overrides };
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
const plans =
  (table: PlanTable = SEED_PLANS) =>
  (plan: string): RateLimitQuota =>
    table[plan] ?? table.free;

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
    ])('gives a %s client its plan quotas', (plan, limits) => {
      expect(limiter.limitsFor(client({ plan }))).toEqual(limits);
    });
    it("gives a client's own limits precedence over its plan's", () => {
      const limits = { perMinute: 5, perDay: 50 };
      expect(limiter.limitsFor(client({ plan: 'enterprise', limits }))).toEqual(limits);
    });
    it('sets the ban threshold at multiplier × per-minute quota', () => {
      expect(limiter.requestFor(client({ plan: 'pro' }), true).ban).toEqual({
        threshold: 900,
        durationMs: 900_000,
        windowMs: 60_000,
      });
    });
  });

  describe('when the storage is unreachable', () => {
    it('fails open: serves, counting in the process, and warns (not on every request)', async () => {
      const storage = new FlakyStorage();
      const limiter = new RateLimiter(plans(), storage, SETTINGS, new MemoryRateLimitStorage());
      const own = client({ plan: 'enterprise', limits: { perMinute: 2, perDay: 10 } });
      const outcomes = [];
      for (let i = 0; i < 3; i++) outcomes.push((await limiter.check(own)).outcome);
      expect(outcomes).toEqual(['allowed', 'allowed', 'limited']);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('ECONNREFUSED');
      expect(warnings[0]).toContain('failing open');
      storage.down = false;
      expect((await limiter.check(own)).windows[0].remaining).toBe(1); // back on the shared counters
    });

    it('fails closed when configured: the error reaches the caller (answered 503)', async () => {
      const limiter = new RateLimiter(
        plans(),
        new FlakyStorage(),
        { ...SETTINGS, failOpen: false },
        new MemoryRateLimitStorage(),
      );
      await expect(limiter.check(client({ id: 'ip:203.0.113.7' }))).rejects.toBeInstanceOf(
        RateLimitStorageUnavailableError,
      );
      expect(warnings[0]).toContain('failing closed');
    });

    it('reads the plan table at each request, so a reload applies at once', async () => {
      let table: PlanTable = SEED_PLANS;
      const limiter = new RateLimiter((plan) => table[plan], new MemoryRateLimitStorage(), SETTINGS, null);
      const free = client();
      expect((await limiter.check(free)).binding.limit).toBe(60);
      table = { ...SEED_PLANS, free: { perMinute: 5, perDay: 50 } };
      const decision = await limiter.check(free);
      expect(decision.binding).toMatchObject({ limit: 5, remaining: 3 });
    });
  });

  it('unban lifts the ban in the shared storage and in the fallback', async () => {
    const storage = new FlakyStorage();
    storage.down = false;
    const fallback = new FlakyStorage();
    fallback.down = false;
    const limiter = new RateLimiter(plans(), storage, SETTINGS, fallback);
    await limiter.unban(client().id);
    expect(storage.unbanned).toEqual([client().id]);
    expect(fallback.unbanned).toEqual(storage.unbanned);
  });
});
