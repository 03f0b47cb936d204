import { backoffDelayMs, DEFAULT_RETRY_POLICY, retryDelayMs, withinRetryWindow } from './retry-schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const top = () => 1 - Number.EPSILON; // the highest draw: the ceiling itself (less a millisecond at most)
const none = null; // no Retry-After

describe('retryDelayMs', () => {
  it('draws the delay from [0, ceiling): the ceiling is 30 s after the first failure and doubles up to 6 h', () => {
    const ceilings = [1, 2, 3, 4, 5, 10, 11, 12].map((n) => retryDelayMs(DEFAULT_RETRY_POLICY, n, 0, none, top));
    expect(ceilings).toEqual([29_999, 59_999, 119_999, 239_999, 479_999, 15_359_999, 6 * HOUR - 1, 6 * HOUR - 1]);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0, none, () => 0)).toBe(0);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 3, 0, none, () => 0.25)).toBe(30_000);
  });

  it('uses the whole window (full jitter), within its bounds, for real random draws', () => {
    const draws = Array.from({ length: 2_000 }, () => retryDelayMs(DEFAULT_RETRY_POLICY, 2, 0) as number);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(60_000);
    // Uniform over [0, 60 s): both the lowest and the highest tenth are drawn from.
    expect(draws.some((d) => d < 6_000)).toBe(true);
    expect(draws.some((d) => d >= 54_000)).toBe(true);
  });

  it("waits what a receiver's Retry-After asks, cut to the maximum delay", () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0, 120_000, () => 0)).toBe(120_000);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0, 48 * HOUR)).toBe(6 * HOUR);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0, 0)).toBe(0);
  });

  it('gives up when the next attempt would fall after the retry window, Retry-After or not', () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 13, 18 * HOUR, none, top)).toBe(6 * HOUR - 1);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 13, 18 * HOUR + 2, none, top)).toBeNull();
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 2, 23 * HOUR, 2 * HOUR)).toBeNull();
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 2, 23 * HOUR, 30 * MIN)).toBe(30 * MIN);
  });

  it('follows a short policy (as the tests configure it)', () => {
    const policy = { retryBaseMs: 100, retryMaxMs: 400, retryForMs: 1_000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n, 0, none, top))).toEqual([99, 199, 399, 399]);
    expect(retryDelayMs(policy, 5, 700, none, top)).toBeNull();
    expect(retryDelayMs(policy, 5, 700, none, () => 0)).toBe(0);
  });
});

describe('backoffDelayMs and withinRetryWindow', () => {
  it('draw the same delay as retryDelayMs, the window apart', () => {
    expect(backoffDelayMs(DEFAULT_RETRY_POLICY, 2, none, () => 0.5)).toBe(30_000);
    expect(withinRetryWindow(DEFAULT_RETRY_POLICY, 0, 30_000)).toBe(30_000);
    expect(withinRetryWindow(DEFAULT_RETRY_POLICY, 24 * HOUR - 29_999, 30_000)).toBeNull();
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 2, 24 * HOUR - 29_999, none, () => 0.5)).toBeNull();
  });
});
