import {
  applyHit,
  type BanRule,
  DAY_MS,
  type HitRequest,
  liftBan,
  MINUTE_MS,
  newClientCounters,
} from './fixed-window.js';
import { MemoryRateLimitStorage } from './memory.storage.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

function plan(perMinute: number, perDay: number, ban: BanRule | null = null, consume = true): HitRequest {
  return {
    windows: [
      { name: 'minute', limit: perMinute, durationMs: MINUTE_MS },
      { name: 'day', limit: perDay, durationMs: DAY_MS },
    ],
    ban,
    consume,
  };
}

/** A storage on a clock the test moves. */
function clocked(start = T0) {
  const clock = { now: start };
  const storage = new MemoryRateLimitStorage(() => clock.now);
  return { clock, storage, hit: (request: HitRequest, client = 'c') => storage.hitSync(client, request) };
}

describe('fixed windows (applyHit)', () => {
  it('opens both windows at the first request and counts it in each', () => {
    const result = applyHit(newClientCounters(), plan(3, 10), T0);
    expect(result).toEqual({
      outcome: 'allowed',
      now: T0,
      windows: [
        { count: 1, resetAt: T0 + MINUTE_MS },
        { count: 1, resetAt: T0 + DAY_MS },
      ],
      banUntil: null,
    });
  });

  it('allows exactly the limit, then refuses without counting the refused requests', () => {
    const { hit, clock } = clocked();
    const outcomes = [];
    for (let i = 0; i < 5; i++) {
      outcomes.push(hit(plan(3, 10)));
      clock.now += 1_000;
    }
    expect(outcomes.map((r) => r.outcome)).toEqual(['allowed', 'allowed', 'allowed', 'limited', 'limited']);
    expect(outcomes[4].windows.map((w) => w.count)).toEqual([3, 3]);
  });

  it('anchors the window at the first request, not at the clock minute', () => {
    const { hit, clock } = clocked(T0 + 37_250);
    hit(plan(1, 10));
    clock.now += 10_000;
    const refused = hit(plan(1, 10));
    expect(refused.outcome).toBe('limited');
    expect(refused.windows[0].resetAt).toBe(T0 + 37_250 + MINUTE_MS);
  });

  it('resets a window exactly one length after it opened, and opens the next at the next request', () => {
    const { hit, clock } = clocked();
    hit(plan(1, 10));
    clock.now = T0 + MINUTE_MS - 1;
    expect(hit(plan(1, 10)).outcome).toBe('limited');
    clock.now = T0 + MINUTE_MS + 5_000;
    const next = hit(plan(1, 10));
    expect(next.outcome).toBe('allowed');
    expect(next.windows[0]).toEqual({ count: 1, resetAt: T0 + MINUTE_MS + 5_000 + MINUTE_MS });
    expect(next.windows[1]).toEqual({ count: 2, resetAt: T0 + DAY_MS });
  });

  it('keeps refusing on the day window while minutes pass, until the day ends', () => {
    const { hit, clock } = clocked();
    for (let i = 0; i < 4; i++) {
      expect(hit(plan(2, 4)).outcome).toBe('allowed');
      if (i % 2 === 1) clock.now += MINUTE_MS;
    }
    expect(hit(plan(2, 4)).outcome).toBe('limited');
    clock.now = T0 + DAY_MS - 1;
    expect(hit(plan(2, 4)).outcome).toBe('limited');
    clock.now = T0 + DAY_MS;
    expect(hit(plan(2, 4)).outcome).toBe('allowed');
  });

  it('a rejected request consumes nothing in any window', () => {
    const { hit } = clocked();
    hit(plan(1, 100));
    for (let i = 0; i < 50; i++) hit(plan(1, 100));
    const peek = hit(plan(1, 100, null, false));
    expect(peek.windows.map((w) => w.count)).toEqual([1, 1]);
  });

  it('reports without counting when not consuming', () => {
    const { hit } = clocked();
    expect(hit(plan(1, 10, null, false))).toMatchObject({
      outcome: 'allowed',
      windows: [
        { count: 0, resetAt: null },
        { count: 0, resetAt: null },
      ],
    });
    hit(plan(1, 10));
    expect(hit(plan(1, 10, null, false)).outcome).toBe('limited');
  });

  it('keeps the counts when the limits change (a plan change or a reload)', () => {
    const { hit } = clocked();
    for (let i = 0; i < 3; i++) hit(plan(3, 10));
    expect(hit(plan(3, 10)).outcome).toBe('limited');
    const raised = hit(plan(5, 10));
    expect(raised.outcome).toBe('allowed');
    expect(raised.windows[0].count).toBe(4);
  });

  it('answers with a copy of the counts: later hits do not change an earlier result', () => {
    const state = newClientCounters();
    const first = applyHit(state, plan(5, 10), T0);
    const peek = applyHit(state, plan(5, 10, null, false), T0);
    applyHit(state, plan(5, 10), T0 + 1);
    expect(first.windows.map((w) => w.count)).toEqual([1, 1]);
    expect(peek.windows.map((w) => w.count)).toEqual([1, 1]);
  });

  it('windows of the same length share one counter, looked up before counting', () => {
    const twice: HitRequest = {
      windows: [
        { name: 'a', limit: 5, durationMs: MINUTE_MS },
        { name: 'b', limit: 5, durationMs: MINUTE_MS },
      ],
      ban: null,
      consume: true,
    };
    const state = newClientCounters();
    // None open: each gets a new counter (the last one is kept).
    expect(applyHit(state, twice, T0).windows).toEqual([
      { count: 1, resetAt: T0 + MINUTE_MS },
      { count: 1, resetAt: T0 + MINUTE_MS },
    ]);
    // One open: it counts the request once per window, and both report its final count.
    expect(applyHit(state, twice, T0 + 1).windows).toEqual([
      { count: 3, resetAt: T0 + MINUTE_MS },
      { count: 3, resetAt: T0 + MINUTE_MS },
    ]);
    expect(state.windows.size).toBe(1);
  });

  it('keeps clients apart', () => {
    const { hit } = clocked();
    hit(plan(1, 10), 'a');
    expect(hit(plan(1, 10), 'a').outcome).toBe('limited');
    expect(hit(plan(1, 10), 'b').outcome).toBe('allowed');
  });
});

describe('bans', () => {
  const ban: BanRule = { threshold: 6, durationMs: 900_000, windowMs: MINUTE_MS };

  it('bans on the rejection that makes more than the threshold within a minute, and only then', () => {
    const { hit } = clocked();
    hit(plan(2, 100, ban));
    hit(plan(2, 100, ban));
    const outcomes = Array.from({ length: 8 }, () => hit(plan(2, 100, ban)).outcome);
    expect(outcomes).toEqual(['limited', 'limited', 'limited', 'limited', 'limited', 'limited', 'banned', 'banned']);
  });

  it('says which request started the ban (only that one), so a ban is reported once', () => {
    const { hit } = clocked();
    const results = Array.from({ length: 2 + 9 }, () => hit(plan(2, 100, ban)));
    expect(results.map((r) => r.banStarted === true)).toEqual([...Array(8).fill(false), true, false, false]);
    expect(hit({ ...plan(2, 100, ban), consume: false }).banStarted).toBeUndefined();
  });

  it('refuses a banned client until the ban ends, without counting, then lets it in', () => {
    const { hit, clock } = clocked();
    for (let i = 0; i < 9; i++) hit(plan(2, 100, ban));
    const banned = hit(plan(2, 100, ban));
    expect(banned).toMatchObject({ outcome: 'banned', banUntil: T0 + 900_000 });
    clock.now = T0 + 900_000 - 1;
    expect(hit(plan(2, 100, ban)).outcome).toBe('banned');
    clock.now = T0 + 900_000;
    const after = hit(plan(2, 100, ban));
    expect(after.outcome).toBe('allowed');
    expect(after.windows[1].count).toBe(3);
  });

  it('does not add up rejections from different minutes', () => {
    const { hit, clock } = clocked();
    for (let minute = 0; minute < 10; minute++) {
      for (let i = 0; i < 2 + 6; i++) expect(hit(plan(2, 1_000, ban)).outcome).not.toBe('banned');
      clock.now += MINUTE_MS;
    }
  });

  it('liftBan ends a ban at once and forgets the rejections that led to it', () => {
    const state = newClientCounters();
    for (let i = 0; i < 9; i++) applyHit(state, plan(2, 100, ban), T0);
    expect(applyHit(state, plan(2, 100, ban), T0 + 1).outcome).toBe('banned');
    liftBan(state);
    const outcomes = Array.from({ length: 7 }, (_, i) => applyHit(state, plan(2, 100, ban), T0 + 2 + i).outcome);
    expect(outcomes).toEqual(['limited', 'limited', 'limited', 'limited', 'limited', 'limited', 'banned']);
  });

  describe('a client that backs off exponentially after each 429 is never banned', () => {
    // The service's rule: more than 3 × the per-minute limit of rejections within a minute, 15 minutes.
    const rule = (perMinute: number): BanRule => ({
      threshold: 3 * perMinute,
      durationMs: 900_000,
      windowMs: MINUTE_MS,
    });

    it.each([
      ['free', 60, 1_000],
      ['pro', 300, 10_000],
      ['business', 1_000, 100_000],
      ['a small enterprise quota', 10, 100],
    ])('%s: three simulated days of continuous demand', (_plan, perMinute, perDay) => {
      const { hit, clock } = clocked();
      const request = plan(perMinute, perDay, rule(perMinute));
      const end = T0 + 3 * DAY_MS;
      let consecutive = 0;
      let served = 0;
      let rejected = 0;
      let banned = 0;
      while (clock.now < end) {
        const { outcome } = hit(request);
        if (outcome === 'banned') banned += 1;
        if (outcome === 'allowed') {
          served += 1;
          consecutive = 0;
          clock.now += 10; // as fast as it can
        } else {
          rejected += 1;
          clock.now += Math.min(100 * 2 ** consecutive, 3_600_000); // 100 ms, 200 ms, … capped at an hour
          consecutive += 1;
        }
      }
      expect(banned).toBe(0);
      expect(served).toBeGreaterThanOrEqual(3 * perDay - perMinute); // it still gets (nearly) its whole quota
      expect(rejected).toBeGreaterThan(0);
    });

    it('while a client that keeps hammering is banned after 3 × limit + 1 rejections', () => {
      const { hit, clock } = clocked();
      const request = plan(60, 1_000, rule(60));
      let rejections = 0;
      for (;;) {
        const { outcome } = hit(request);
        if (outcome === 'banned') break;
        if (outcome === 'limited') rejections += 1;
        clock.now += 50;
      }
      expect(rejections).toBe(180);
    });
  });
});

describe('MemoryRateLimitStorage', () => {
  it('keeps O(1) state per client: a hundred thousand hits cost no more than the first thousand', () => {
    const { storage, clock } = clocked();
    const request = plan(1_000_000, 10_000_000);
    const time = (n: number) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        storage.hitSync('hot', request);
        clock.now += 1;
      }
      return Number(process.hrtime.bigint() - started) / n;
    };
    time(1_000); // warm up
    const early = time(10_000);
    time(80_000);
    const late = time(10_000);
    expect(late).toBeLessThan(early * 5 + 2_000); // ns per hit: flat, not growing with the count
    expect(storage.size()).toBe(1);
  });

  it('sweeps clients whose windows, rejections and ban have ended', async () => {
    const { storage, clock, hit } = clocked();
    hit(plan(5, 10), 'a');
    clock.now += MINUTE_MS;
    hit(plan(5, 10), 'b');
    clock.now += DAY_MS - MINUTE_MS;
    storage.sweep();
    expect(storage.size()).toBe(1);
    clock.now += MINUTE_MS;
    storage.sweep();
    expect(storage.size()).toBe(0);
    await storage.close();
  });

  it('keeps a rejection for the longest window or ban of any request it served, requests alternating', async () => {
    const { storage, clock, hit } = clocked();
    const minuteOnly: HitRequest = {
      windows: [{ name: 'minute', limit: 5, durationMs: MINUTE_MS }],
      ban: null,
      consume: true,
    };
    const ban: BanRule = { threshold: 5, durationMs: 2 * DAY_MS, windowMs: MINUTE_MS };
    hit(minuteOnly, 'a');
    hit(plan(1, 10, ban), 'b');
    expect(hit(plan(1, 10, ban), 'b').outcome).toBe('limited'); // a rejection, no ban
    hit(minuteOnly, 'a');
    clock.now += DAY_MS; // every window has ended
    storage.sweep();
    expect(storage.size()).toBe(1); // 'b', for its rejection: kept as long as the two-day ban
    clock.now += DAY_MS;
    storage.sweep();
    expect(storage.size()).toBe(0);
    await storage.close();
  });

  it('unban lifts a ban', async () => {
    const { storage, hit } = clocked();
    const ban: BanRule = { threshold: 1, durationMs: 60_000, windowMs: MINUTE_MS };
    hit(plan(1, 10, ban));
    expect(hit(plan(1, 10, ban)).outcome).toBe('limited');
    expect(hit(plan(1, 10, ban)).outcome).toBe('banned');
    await storage.unban('c');
    expect(hit(plan(1, 10, ban)).outcome).toBe('limited');
  });
});
