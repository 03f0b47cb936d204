import { retryAfterMs } from './retry-after.js';

const NOW = Date.parse('2026-11-27T08:00:00Z');

describe('Retry-After', () => {
  it.each([
    [429, '120', 120_000],
    [503, '0', 0],
    [503, ' 7 ', 7_000],
    [429, 'Fri, 27 Nov 2026 08:00:30 GMT', 30_000],
    [503, 'Friday, 27-Nov-26 08:01:00 GMT', 60_000],
    [429, 'Fri Nov 27 08:00:05 2026', 5_000],
    [429, 'Fri, 27 Nov 2026 07:00:00 GMT', 0],
  ])('status %i with %j waits %i ms', (status, header, ms) => {
    expect(retryAfterMs(status, header, NOW)).toBe(ms);
  });

  it.each([
    [429, undefined],
    [429, ''],
    [429, '-5'],
    [429, '1.5'],
    [503, 'soon'],
    [503, '2026-11-27'],
    [429, '9'.repeat(30)],
    [500, '120'],
    [410, '120'],
    [200, 'Fri, 27 Nov 2026 08:00:30 GMT'],
  ])('status %i with %j gives none', (status, header) => {
    expect(retryAfterMs(status, header, NOW)).toBeNull();
  });
});
