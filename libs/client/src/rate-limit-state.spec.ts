import { Pacer } from './pacer.js';
import { readRateLimit } from './rate-limit-state.js';

const headers = (minute: [number, number], day: [number, number] = [999, 86_400]) =>
  new Headers({
    'X-RateLimit-Limit': '5',
    'X-RateLimit-Remaining': String(minute[0]),
    'X-RateLimit-Reset': '1795262460',
    'RateLimit-Policy': '"minute";q=5;w=60, "day";q=1000;w=86400',
    RateLimit: `"minute";r=${minute[0]};t=${minute[1]}, "day";r=${day[0]};t=${day[1]}`,
  });

describe('readRateLimit', () => {
  it('reads both windows of the IETF fields, their resets on the client clock, and the X-RateLimit-* trio', () => {
    const state = readRateLimit(headers([3, 42]), 10_000);
    expect(state).toEqual({
      limit: 5,
      remaining: 3,
      reset: 1795262460,
      retryAfterSeconds: null,
      windows: [
        { name: 'minute', limit: 5, durationMs: 60_000, remaining: 3, resetAt: 52_000 },
        { name: 'day', limit: 1000, durationMs: 86_400_000, remaining: 999, resetAt: 86_410_000 },
      ],
    });
  });

  it('falls back to X-RateLimit-Remaining and Reset without the IETF fields', () => {
    const state = readRateLimit(
      new Headers({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '100', 'Retry-After': '7' }),
      0,
    );
    expect(state.windows).toEqual([{ name: 'binding', limit: null, durationMs: null, remaining: 0, resetAt: 100_000 }]);
    expect(state.retryAfterSeconds).toBe(7);
  });
});

describe('Pacer', () => {
  it('lets requests go while every window has room, and waits for the reset of a spent one', () => {
    let now = 0;
    const pacer = new Pacer(() => now);
    expect(pacer.delay()).toBe(0);
    pacer.reserve();
    pacer.settle(readRateLimit(headers([0, 30]), now));
    expect(pacer.delay()).toBe(30_000);
    now = 30_000;
    expect(pacer.delay()).toBe(0);
  });

  it('counts requests in flight against the windows (concurrent requests do not overshoot)', () => {
    const pacer = new Pacer(() => 0);
    pacer.reserve();
    pacer.settle(readRateLimit(headers([2, 60]), 0));
    pacer.reserve();
    pacer.reserve();
    expect(pacer.delay()).toBe(60_000);
    // The first answer of the two counts the other, still in flight, as spent.
    pacer.settle(readRateLimit(headers([1, 60]), 0));
    expect(pacer.delay()).toBe(60_000);
  });

  it('waits for the day window too when it is the one spent', () => {
    const pacer = new Pacer(() => 0);
    pacer.reserve();
    pacer.settle(readRateLimit(headers([4, 20], [0, 3_600]), 0));
    expect(pacer.delay()).toBe(3_600_000);
  });

  it('opens a fresh window with its full quota once the old one reset', () => {
    let now = 0;
    const pacer = new Pacer(() => now);
    pacer.reserve();
    pacer.settle(readRateLimit(headers([0, 10]), now));
    now = 10_000;
    for (let i = 0; i < 5; i++) {
      expect(pacer.delay()).toBe(0);
      pacer.reserve();
    }
    expect(pacer.delay()).toBe(60_000);
  });
});
