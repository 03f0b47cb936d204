import { delayAfter429, delayAfterFailure, fullJitter } from './backoff.js';

describe('backoff', () => {
  it('draws full jitter below min(cap, base·2^n)', () => {
    expect([0, 1, 2, 3].map((n) => fullJitter(n, () => 0.999_999))).toEqual([249, 499, 999, 1999]);
    expect(fullJitter(3, () => 0)).toBe(0);
    expect(fullJitter(20, () => 0.5, { maxDelayMs: 10_000 })).toBe(5_000);
  });

  it('waits Retry-After after a 429, and never less, with jitter on top when 429s repeat', () => {
    const half = () => 0.5;
    expect([1, 2, 3, 4].map((n) => delayAfter429(2, n, half))).toEqual([2_000, 2_125, 2_250, 2_500]);
    for (const random of [() => 0, () => 0.3, () => 0.999]) {
      for (let n = 1; n < 30; n++) expect(delayAfter429(7, n, random)).toBeGreaterThanOrEqual(7_000);
    }
  });

  it('backs off exponentially after failures, never under Retry-After', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3].map((attempt) => delayAfterFailure(null, attempt, top))).toEqual([249, 499, 999]);
    expect(delayAfterFailure(5, 1, top)).toBe(5_000);
  });
});
