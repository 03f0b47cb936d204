import { MemoryRateLimitStorage } from './memory.storage.js';
import { RateLimiter } from './rate-limiter.js';
import { ThrottlerStorageAdapter } from './throttler-storage.adapter.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const SETTINGS = { failOpen: true, banThresholdMultiplier: 3, banDurationSeconds: 900 };

function clocked(start = T0) {
  const clock = { now: start };
  const limiter = new RateLimiter(
    () => ({ perMinute: 60, perDay: 1_000 }),
    new MemoryRateLimitStorage(() => clock.now),
    SETTINGS,
    null,
  );
  return { clock, storage: new ThrottlerStorageAdapter(limiter) };
}

describe('ThrottlerStorageAdapter', () => {
  describe('as a ThrottlerStorage', () => {
    it('counts hits of one window and reports the throttler record in seconds', async () => {
      const { storage, clock } = clocked();
      const first = await storage.increment('ip', 60_000, 2, 0, 'default');
      expect(first).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
      clock.now += 15_000;
      await storage.increment('ip', 60_000, 2, 0, 'default');
      const third = await storage.increment('ip', 60_000, 2, 0, 'default');
      expect(third).toEqual({ totalHits: 3, timeToExpire: 45, isBlocked: true, timeToBlockExpire: 45 });
    });

    it('blocks for blockDuration from the first rejection', async () => {
      const { storage, clock } = clocked();
      await storage.increment('ip', 10_000, 1, 30_000, 'short');
      const blocked = await storage.increment('ip', 10_000, 1, 30_000, 'short');
      expect(blocked).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
      clock.now += 20_000; // the window has ended, the block has not
      expect(await storage.increment('ip', 10_000, 1, 30_000, 'short')).toMatchObject({ isBlocked: true });
      clock.now += 10_000;
      expect(await storage.increment('ip', 10_000, 1, 30_000, 'short')).toMatchObject({
        isBlocked: false,
        totalHits: 1,
      });
    });

    it('keeps keys apart', async () => {
      const { storage } = clocked();
      await storage.increment('a', 60_000, 1, 0, 'default');
      expect(await storage.increment('b', 60_000, 1, 0, 'default')).toMatchObject({ isBlocked: false });
      expect(await storage.increment('a', 60_000, 1, 0, 'default')).toMatchObject({ isBlocked: true });
    });
  });
});
