import { DEFAULT_RETRY_POLICY, retryDelayMs } from './retry-schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const mid = () => 0.5; // no jitter

describe('retryDelayMs', () => {
  it('waits 30 s after the first failure and doubles up to 6 h', () => {
    const delays = [1, 2, 3, 4, 5, 10, 11, 12].map((n) => retryDelayMs(DEFAULT_RETRY_POLICY, n, 0, mid));
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 15_360_000, 6 * HOUR, 6 * HOUR]);
  });

  it('jitters by ±20 %', () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0, () => 0)).toBe(24_000);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0, () => 0.999999)).toBe(36_000);
  });

  it('gives up when the next attempt would fall after 24 h', () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 13, 18 * HOUR - 1, mid)).toBe(6 * HOUR);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 13, 18 * HOUR + 1, mid)).toBeNull();
  });

  it('makes 13 attempts in 24 h with the default policy', () => {
    let elapsed = 0;
    let attempts = 1;
    for (let delay = retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0, mid); delay !== null; attempts++) {
      elapsed += delay;
      delay = retryDelayMs(DEFAULT_RETRY_POLICY, attempts + 1, elapsed, mid);
    }
    expect(attempts).toBe(13);
    expect(elapsed).toBeLessThanOrEqual(24 * HOUR);
  });

  it('follows a short policy (as the tests configure it)', () => {
    const policy = { retryBaseMs: 100, retryMaxMs: 400, retryForMs: 1_000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n, 0, mid))).toEqual([100, 200, 400, 400]);
    expect(retryDelayMs(policy, 5, 700, mid)).toBeNull();
  });
});
