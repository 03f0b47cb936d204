import { type BanRule, DAY_MS, type HitRequest, MINUTE_MS } from './fixed-window.js';
import { MemoryRateLimitStorage } from './memory.storage.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const BAN: BanRule = { threshold: 2, durationMs: 15 * MINUTE_MS, windowMs: MINUTE_MS };

function plan(perMinute: number, perDay = 1_000): HitRequest {
  return {
    windows: [
      { name: 'minute', limit: perMinute, durationMs: MINUTE_MS },
      { name: 'day', limit: perDay, durationMs: DAY_MS },
    ],
    ban: BAN,
    consume: true,
  };
}

/** A storage bounded to `cap` anonymous clients (addresses and their route windows), on a clock the test moves. */
function bounded(cap: number) {
  const clock = { now: T0 };
  const storage = new MemoryRateLimitStorage(() => clock.now, {
    maxAnonymousClients: cap,
    isAnonymous: (id) => id.startsWith('ip:') || id.startsWith('throttler:ip:'),
  });
  return { clock, storage };
}

/** Refused until banned: the limit is 1, the ban comes after more than 2 refusals. */
function banClient(storage: MemoryRateLimitStorage, id: string): number {
  let result = storage.hitSync(id, plan(1));
  while (result.outcome !== 'banned') result = storage.hitSync(id, plan(1));
  return result.banUntil ?? 0;
}

describe('MemoryRateLimitStorage bound (anonymous clients, LRU)', () => {
  it('a flood of distinct addresses keeps the anonymous records at the cap; keys and bans survive it', async () => {
    const { storage } = bounded(1_000);
    for (let i = 0; i < 3; i++) storage.hitSync('k1.abc', plan(100));
    const banUntil = banClient(storage, 'ip:198.51.100.9');
    const keyBanUntil = banClient(storage, 'k2.abc');
    for (let i = 0; i < 100_000; i++) {
      storage.hitSync(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, plan(60));
      storage.hitSync(`throttler:ip:10.0.${(i >> 8) & 255}.${i & 255}:export:C.h`, plan(10));
    }
    // The cap (1,000 anonymous), plus the two keys and the banned address, which left the LRU when banned.
    expect(storage.size()).toBe(1_000 + 3);
    expect(storage.hitSync('k1.abc', plan(100)).windows[0].count).toBe(4); // its window kept its count
    const banned = storage.hitSync('ip:198.51.100.9', plan(1));
    expect({ outcome: banned.outcome, banUntil: banned.banUntil }).toEqual({ outcome: 'banned', banUntil });
    expect(await storage.bans()).toEqual([
      { client: 'ip:198.51.100.9', until: banUntil },
      { client: 'k2.abc', until: keyBanUntil },
    ]);
  });

  it('evicts the least recently used address: one still sending keeps its count', () => {
    const { storage } = bounded(3);
    storage.hitSync('ip:a', plan(60));
    storage.hitSync('ip:b', plan(60));
    storage.hitSync('ip:c', plan(60));
    storage.hitSync('ip:a', plan(60)); // a is now the most recent
    storage.hitSync('ip:d', plan(60)); // evicts b
    expect(storage.hitSync('ip:a', plan(60)).windows[0].count).toBe(3);
    expect(storage.hitSync('ip:b', plan(60)).windows[0].count).toBe(1); // forgotten, counted afresh
  });

  it('lists bans until they end or are lifted, and sweeps ended ones', async () => {
    const { storage, clock } = bounded(10);
    const until = banClient(storage, 'ip:a');
    banClient(storage, 'ip:b');
    await storage.unban('ip:b');
    expect(await storage.bans()).toEqual([{ client: 'ip:a', until }]);
    expect(storage.hitSync('ip:b', plan(1)).outcome).toBe('limited'); // lifted; its minute is still spent
    clock.now = until;
    expect(await storage.bans()).toEqual([]);
    clock.now += DAY_MS;
    storage.sweep();
    expect(storage.size()).toBe(0);
  });
});

describe('MemoryRateLimitStorage refund (a 304 is not charged)', () => {
  it('takes one request back from each window that counted it', async () => {
    const { storage } = bounded(10);
    storage.hitSync('k1.a', plan(5));
    const charged = storage.hitSync('k1.a', plan(5));
    await storage.refund(
      'k1.a',
      plan(5).windows,
      charged.windows.map((w) => w.resetAt ?? -1),
    );
    expect(storage.hitSync('k1.a', { ...plan(5), consume: false }).windows.map((w) => w.count)).toEqual([1, 1]);
  });

  it('leaves a window alone when it has ended since (the refund belongs to the old one)', async () => {
    const { storage, clock } = bounded(10);
    const charged = storage.hitSync('k1.a', plan(5));
    clock.now += MINUTE_MS; // the minute window ends; the next request opens a new one
    storage.hitSync('k1.a', plan(5));
    await storage.refund(
      'k1.a',
      plan(5).windows,
      charged.windows.map((w) => w.resetAt ?? -1),
    );
    expect(storage.hitSync('k1.a', { ...plan(5), consume: false }).windows.map((w) => w.count)).toEqual([1, 1]);
  });
});

describe('MemoryRateLimitStorage shared windows (windowsOf)', () => {
  it('counts the requests of two clients in the windows they share, and bans only the one that kept sending', () => {
    const { storage } = bounded(10);
    const limit = plan(3);
    expect(storage.hitSync('k1.a', limit, 'a1.a').outcome).toBe('allowed');
    expect(storage.hitSync('k2.a', limit, 'a1.a').outcome).toBe('allowed');
    const third = storage.hitSync('k1.a', limit, 'a1.a');
    expect(third).toMatchObject({ outcome: 'allowed', windows: [{ count: 3 }, { count: 3 }] });
    // The shared minute is full for both.
    expect(storage.hitSync('k2.a', limit, 'a1.a').outcome).toBe('limited');
    expect(storage.hitSync('k1.a', limit, 'a1.a').outcome).toBe('limited');
    // k2 keeps sending: more than 2 refusals of its own ban it, not k1.
    expect(storage.hitSync('k2.a', limit, 'a1.a').outcome).toBe('limited');
    expect(storage.hitSync('k2.a', limit, 'a1.a')).toMatchObject({ outcome: 'banned', banStarted: true });
    expect(storage.hitSync('k1.a', limit, 'a1.a').outcome).toBe('limited');
    // A client counted alone does not see the shared windows.
    expect(storage.hitSync('k1.a', limit).outcome).toBe('allowed');
  });

  it('a report (consume false) shows the shared windows without counting', () => {
    const { storage } = bounded(10);
    storage.hitSync('k1.a', plan(5), 'a1.a');
    storage.hitSync('k2.a', plan(5), 'a1.a');
    const report = storage.hitSync('k3.a', { ...plan(5), consume: false }, 'a1.a');
    expect(report).toMatchObject({ outcome: 'allowed', windows: [{ count: 2 }, { count: 2 }] });
  });
});
