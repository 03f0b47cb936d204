import { DAY_MS, type HitRequest, type HitResult, MINUTE_MS } from './fixed-window.js';
import { MemoryRateLimitStorage } from './memory.storage.js';
import {
  bindingWindow,
  decide,
  type RateLimitDecision,
  rateLimitHeaders,
  reportedWindows,
  setRateLimitHeaders,
  type WindowView,
  withRouteWindow,
} from './rate-limit-decision.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

function view(name: string, durationMs: number, limit: number, remaining: number, resetAt: number): WindowView {
  return { name, durationMs, limit, remaining, resetAt };
}

function plan(perMinute: number, perDay: number, threshold = 1_000): HitRequest {
  return {
    windows: [
      { name: 'minute', limit: perMinute, durationMs: MINUTE_MS },
      { name: 'day', limit: perDay, durationMs: DAY_MS },
    ],
    ban: { threshold, durationMs: 900_000, windowMs: MINUTE_MS },
    consume: true,
  };
}

describe('bindingWindow', () => {
  const minute = (remaining: number) => view('minute', MINUTE_MS, 60, remaining, T0 + 30_000);
  const day = (remaining: number) => view('day', DAY_MS, 1_000, remaining, T0 + 3_600_000);

  it('picks the window with the fewest remaining', () => {
    expect(bindingWindow([minute(59), day(4)], false).name).toBe('day');
    expect(bindingWindow([minute(3), day(400)], false).name).toBe('minute');
  });

  it('picks the shorter window on a tie, whatever the order', () => {
    expect(bindingWindow([minute(5), day(5)], false).name).toBe('minute');
    expect(bindingWindow([day(5), minute(5)], false).name).toBe('minute');
    expect(bindingWindow([day(0), minute(0)], false).name).toBe('minute');
  });

  it('on a rejection picks the window that rejected', () => {
    expect(bindingWindow([minute(0), day(500)], true).name).toBe('minute');
    expect(bindingWindow([minute(12), day(0)], true).name).toBe('day');
  });

  it('when both rejected, picks the one that frees last, so Retry-After is when a retry can succeed', () => {
    expect(bindingWindow([minute(0), day(0)], true).name).toBe('day');
    const dayEndingFirst = view('day', DAY_MS, 1_000, 0, T0 + 10_000);
    expect(bindingWindow([minute(0), dayEndingFirst], true).name).toBe('minute');
  });

  it('on a full tie picks the first in order (what a stable sort puts first), without reordering the input', () => {
    const a = view('a', MINUTE_MS, 10, 3, T0 + 1_000);
    const b = view('b', MINUTE_MS, 10, 3, T0 + 1_000);
    const longer = view('c', DAY_MS, 10, 3, T0 + 1_000);
    const windows = [longer, a, b];
    expect(bindingWindow(windows, false)).toBe(a);
    expect(bindingWindow([longer, b, a], false)).toBe(b);
    const full = [longer, { ...a, remaining: 0 }, { ...b, remaining: 0 }];
    expect(bindingWindow(full, true)).toBe(full[1]);
    expect(windows).toEqual([longer, a, b]);
  });

  it('on a rejection with no window at zero, falls back to the one that binds most', () => {
    expect(bindingWindow([minute(2), day(1)], true).name).toBe('day');
  });

  it('agrees with sorting a copy, on every arrangement of tied and distinct windows', () => {
    const sorted = (windows: WindowView[], rejected: boolean): WindowView => {
      const full = windows.filter((w) => w.remaining === 0);
      if (rejected && full.length > 0) {
        return [...full].sort((a, b) => b.resetAt - a.resetAt || a.durationMs - b.durationMs)[0];
      }
      return [...windows].sort((a, b) => a.remaining - b.remaining || a.durationMs - b.durationMs)[0];
    };
    const pool: WindowView[] = [];
    for (const durationMs of [MINUTE_MS, DAY_MS]) {
      for (const remaining of [0, 1]) {
        for (const resetAt of [T0 + 1_000, T0 + 2_000])
          pool.push(view(`w${pool.length}`, durationMs, 5, remaining, resetAt));
      }
    }
    // Every list of 1 to 3 windows drawn from the pool (repeats included: the same object twice is a full tie).
    const lists: WindowView[][] = pool.map((w) => [w]);
    for (const list of [...lists]) for (const w of pool) lists.push([...list, w]);
    for (const list of lists.filter((l) => l.length === 2)) for (const w of pool) lists.push([...list, w]);
    for (const list of lists) {
      for (const rejected of [false, true]) expect(bindingWindow(list, rejected)).toBe(sorted(list, rejected));
    }
  });
});

describe('decide and rateLimitHeaders (injected clock)', () => {
  const clock = { now: T0 };
  let storage: MemoryRateLimitStorage;
  beforeEach(() => {
    clock.now = T0;
    storage = new MemoryRateLimitStorage(() => clock.now);
  });
  const hit = (request: HitRequest): [HitRequest, HitResult] => [request, storage.hitSync('c', request)];

  it("says each plan's RateLimit-Policy, allowed, limited or banned, and again for the next request", () => {
    const small = plan(1, 100, 1);
    const large = plan(600, 50_000);
    const decisions = [decide(...hit(small)), decide(...hit(small)), decide(...hit(small))];
    storage = new MemoryRateLimitStorage(() => clock.now); // another client, unbanned
    decisions.push(decide(...hit(large)), decide(...hit(large)));
    const policies = decisions.map((decision) => [decision.outcome, rateLimitHeaders(decision)['RateLimit-Policy']]);
    expect(policies).toEqual([
      ['allowed', '"minute";q=1;w=60, "day";q=100;w=86400'],
      ['limited', '"minute";q=1;w=60, "day";q=100;w=86400'],
      ['banned', '"minute";q=1;w=60, "day";q=100;w=86400'],
      ['allowed', '"minute";q=600;w=60, "day";q=50000;w=86400'],
      ['allowed', '"minute";q=600;w=60, "day";q=50000;w=86400'],
    ]);
  });

  it('describes the minute window of a fresh free client', () => {
    const headers = rateLimitHeaders(decide(...hit(plan(60, 1_000))));
    expect(headers).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': String((T0 + MINUTE_MS) / 1000),
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=59;t=60, "day";r=999;t=86400',
    });
  });

  it('switches to the day window once it has fewer requests left', () => {
    clock.now = T0 + 500;
    for (let i = 0; i < 3; i++) storage.hitSync('c', plan(60, 5));
    const decision = decide(...hit(plan(60, 5)));
    expect(decision.binding.name).toBe('day');
    expect(rateLimitHeaders(decision)).toMatchObject({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '1',
      // rounded up: a client waiting until then is never early
      'X-RateLimit-Reset': String(Math.ceil((T0 + 500 + DAY_MS) / 1000)),
    });
  });

  it('describes the minute window on a tie', () => {
    const decision = decide(...hit(plan(10, 10)));
    expect(decision.binding.name).toBe('minute');
  });

  it('on a rejection describes the rejecting window and says when to retry', () => {
    storage.hitSync('c', plan(1, 100));
    clock.now += 20_400;
    const decision = decide(...hit(plan(1, 100)));
    expect(decision.outcome).toBe('limited');
    const headers = rateLimitHeaders(decision);
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String((T0 + MINUTE_MS) / 1000),
      'Retry-After': '40',
      RateLimit: '"minute";r=0;t=40, "day";r=99;t=86380',
    });
  });

  it('on a day-window rejection, Retry-After runs to the end of the day window', () => {
    storage.hitSync('c', plan(10, 2));
    storage.hitSync('c', plan(10, 2));
    clock.now += 1_000;
    const decision = decide(...hit(plan(10, 2)));
    expect(decision.binding.name).toBe('day');
    expect(decision.retryAfterSeconds).toBe(86_399);
  });

  it('never says Retry-After 0', () => {
    storage.hitSync('c', plan(1, 100));
    clock.now = T0 + MINUTE_MS - 1;
    expect(decide(...hit(plan(1, 100))).retryAfterSeconds).toBe(1);
  });

  it('for a ban, describes the ban: nothing remaining until it ends', () => {
    storage.hitSync('c', plan(1, 100, 0));
    clock.now += 5_000;
    const decision = decide(...hit(plan(1, 100, 0)));
    expect(decision.outcome).toBe('banned');
    expect(rateLimitHeaders(decision)).toMatchObject({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String((T0 + 5_000 + 900_000) / 1000),
      'Retry-After': '900',
      RateLimit: '"minute";r=0;t=900, "day";r=0;t=86395',
    });
  });

  it('sends no Retry-After when allowed', () => {
    expect(rateLimitHeaders(decide(...hit(plan(60, 1_000))))['Retry-After']).toBeUndefined();
  });
});

describe('setRateLimitHeaders', () => {
  /** The headers `setRateLimitHeaders` sets, as name/value pairs in the order it sets them. */
  const set = (decision: RateLimitDecision): Array<[string, string]> => {
    const pairs: Array<[string, string]> = [];
    setRateLimitHeaders({ setHeader: (name: string, value: string) => pairs.push([name, value]) }, decision);
    return pairs;
  };
  const clock = { now: T0 };
  const storage = new MemoryRateLimitStorage(() => clock.now);
  afterAll(() => storage.close());
  const decisionOf = (client: string, request: HitRequest) => decide(request, storage.hitSync(client, request));

  it('sets what rateLimitHeaders gives, in the same order: allowed, limited, banned and with a route window', () => {
    const allowed = decisionOf('allowed', plan(60, 1_000));
    decisionOf('limited', plan(1, 100));
    clock.now += 20_400;
    const limited = decisionOf('limited', plan(1, 100));
    decisionOf('banned', plan(1, 100, 0));
    clock.now += 5_000;
    const banned = decisionOf('banned', plan(1, 100, 0));
    const routeWindow = view('export', MINUTE_MS, 10, 0, clock.now + 20_000);
    const route: RateLimitDecision = {
      outcome: 'limited',
      now: clock.now,
      windows: [routeWindow],
      binding: routeWindow,
      retryAfterSeconds: 20,
    };
    const combined = withRouteWindow(decisionOf('routed', plan(60, 1_000)), route);

    expect([allowed, limited, banned, combined].map((d) => d.outcome)).toEqual([
      'allowed',
      'limited',
      'banned',
      'limited',
    ]);
    for (const decision of [allowed, limited, banned, combined]) {
      expect(set(decision)).toEqual(Object.entries(rateLimitHeaders(decision)));
    }
    expect(set(allowed).map(([name]) => name)).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
    ]);
    expect(set(banned).map(([name]) => name)).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
      'Retry-After',
    ]);
  });
});

describe('rateLimitHeaders, field by field', () => {
  /** The two IETF fields as they were first written: one entry per window, joined. */
  const expected = (decision: RateLimitDecision) => ({
    policy: decision.windows.map((w) => `"${w.name}";q=${w.limit};w=${Math.round(w.durationMs / 1000)}`).join(', '),
    state: reportedWindows(decision)
      .map((w) => `"${w.name}";r=${w.remaining};t=${Math.max(1, Math.ceil((w.resetAt - decision.now) / 1000))}`)
      .join(', '),
  });
  const decisionFor = (windows: WindowView[], outcome: RateLimitDecision['outcome'] = 'allowed') => {
    const binding =
      outcome === 'banned' ? { ...windows[0], name: 'ban', remaining: 0, resetAt: T0 + 900_000 } : windows[0];
    return { outcome, now: T0, windows, binding, retryAfterSeconds: outcome === 'allowed' ? null : 900 };
  };

  it('gives each decision its own RateLimit-Policy, however many plans come and go', () => {
    // More distinct window sets than any cache of recent values holds, each seen again later.
    const sets = Array.from({ length: 40 }, (_, i) => [
      view('minute', MINUTE_MS, 10 + (i % 20), 5, T0 + 30_000),
      view(i % 3 === 0 ? 'day' : 'export', i % 2 === 0 ? DAY_MS : 90_500, 1_000, 7, T0 + 3_600_000),
    ]);
    for (const windows of [...sets, ...sets.reverse(), ...sets.slice(0, 5)]) {
      const decision = decisionFor(windows);
      expect(rateLimitHeaders(decision)['RateLimit-Policy']).toBe(expected(decision).policy);
    }
    const one = decisionFor([view('minute', MINUTE_MS, 10, 5, T0 + 30_000)]);
    expect(rateLimitHeaders(one)['RateLimit-Policy']).toBe('"minute";q=10;w=60');
  });

  it('gives RateLimit as reportedWindows describes them, banned or not', () => {
    const windows = [view('minute', MINUTE_MS, 60, 5, T0 + 30_000), view('day', DAY_MS, 1_000, 7, T0 + DAY_MS)];
    for (const outcome of ['allowed', 'limited', 'banned'] as const) {
      const decision = decisionFor(windows, outcome);
      expect(rateLimitHeaders(decision).RateLimit).toBe(expected(decision).state);
    }
  });
});

describe('withRouteWindow', () => {
  const planDecision = (minuteLeft: number): RateLimitDecision => {
    const windows = [
      view('minute', MINUTE_MS, 60, minuteLeft, T0 + 50_000),
      view('day', DAY_MS, 1_000, 900, T0 + DAY_MS),
    ];
    return { outcome: 'allowed', now: T0, windows, binding: windows[0], retryAfterSeconds: null };
  };
  const route = (remaining: number, refused = false): RateLimitDecision => {
    const window = view('export', MINUTE_MS, 10, remaining, T0 + 20_000);
    return {
      outcome: refused ? 'limited' : 'allowed',
      now: T0,
      windows: [window],
      binding: window,
      retryAfterSeconds: null,
    };
  };

  it('lists every window and describes the one that binds most', () => {
    const combined = withRouteWindow(planDecision(40), route(7));
    expect(combined.windows.map((w) => w.name)).toEqual(['minute', 'day', 'export']);
    expect(combined.binding.name).toBe('export');
    expect(withRouteWindow(planDecision(3), route(7)).binding.name).toBe('minute');
    expect(rateLimitHeaders(combined)['RateLimit-Policy']).toBe(
      '"minute";q=60;w=60, "day";q=1000;w=86400, "export";q=10;w=60',
    );
  });

  it('refused by the route: Retry-After until it frees, or until the plan does when both are spent', () => {
    const refused = withRouteWindow(planDecision(40), route(0, true));
    expect(refused).toMatchObject({ outcome: 'limited', binding: { name: 'export' }, retryAfterSeconds: 20 });
    const both = withRouteWindow(planDecision(0), route(0, true));
    expect(both).toMatchObject({ binding: { name: 'minute' }, retryAfterSeconds: 50 });
  });

  it('without a plan decision (the storage could not say) is the route alone', () => {
    expect(withRouteWindow(null, route(7)).windows).toHaveLength(1);
  });
});
