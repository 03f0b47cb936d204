import { UsageRangeError } from './api-key.errors.js';
import { everyDay } from './key-usage.js';
import { usageRange } from './key-usage-range.js';

const TODAY = '2026-11-23';

function problem(query: { from?: string; to?: string }): string {
  try {
    usageRange(query, TODAY);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageRangeError);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', kind: 'validation' });
    return (error as UsageRangeError).message;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

describe('usageRange', () => {
  it('defaults to the last 30 days, today included', () => {
    expect(usageRange({}, TODAY)).toEqual({ from: '2026-10-25', to: TODAY });
  });

  it('defaults from to 29 days before a given to, and to to today', () => {
    expect(usageRange({ to: '2026-03-01' }, TODAY)).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(usageRange({ from: '2026-11-20' }, TODAY)).toEqual({ from: '2026-11-20', to: TODAY });
  });

  it('accepts one day, and up to 366 days', () => {
    expect(usageRange({ from: TODAY, to: TODAY }, TODAY)).toEqual({ from: TODAY, to: TODAY });
    expect(usageRange({ from: '2024-01-01', to: '2024-12-31' }, TODAY)).toEqual({
      from: '2024-01-01',
      to: '2024-12-31',
    });
  });

  it('refuses what is not a calendar day, naming each field', () => {
    expect(problem({ from: '2026-02-29', to: '2026-13-01' })).toBe(
      'Invalid request: from must be a calendar date (YYYY-MM-DD); to must be a calendar date (YYYY-MM-DD)',
    );
    expect(problem({ from: '2026-11-23T00:00:00Z' })).toContain('from must be a calendar date');
  });

  it('refuses from after to, and more than 366 days', () => {
    expect(problem({ from: '2026-11-24' })).toBe(
      'Invalid request: from (2026-11-24) must not be after to (2026-11-23)',
    );
    expect(problem({ from: '2025-01-01', to: '2026-01-02' })).toBe(
      'Invalid request: from..to covers 367 days; at most 366 days per request',
    );
  });
});

describe('everyDay', () => {
  it('lists every day of the range, zeros where nothing was found', () => {
    const found = [{ date: '2026-02-28', requests: 4, refused: 1, bans: 0 }];
    expect(everyDay('2024-02-28', '2024-03-01', []).map((d) => d.date)).toEqual([
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(everyDay('2026-02-27', '2026-03-01', found)).toEqual([
      { date: '2026-02-27', requests: 0, refused: 0, bans: 0 },
      found[0],
      { date: '2026-03-01', requests: 0, refused: 0, bans: 0 },
    ]);
  });
});
