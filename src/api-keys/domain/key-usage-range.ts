import { UsageRangeError } from './api-key.errors.js';
import { DAY_MS } from '../../shared/clock.js';
import { addDays, startOfDay } from './key-usage.js';

/** The longest range one usage query may ask for (a year, leap day included). */
export const MAX_USAGE_RANGE_DAYS = 366;
/** The range when neither end is given: the last 30 days, today included. */
export const DEFAULT_USAGE_RANGE_DAYS = 30;

export interface UsageRange {
  readonly from: string;
  readonly to: string;
}

/**
 * The days a usage query covers. `to` defaults to today (UTC), `from` to 29 days
 * before `to`; both are real `YYYY-MM-DD` days, `from` ≤ `to`, at most
 * {@link MAX_USAGE_RANGE_DAYS} days. Otherwise `VALIDATION_FAILED` naming each problem.
 */
export function usageRange(query: { readonly from?: string; readonly to?: string }, today: string): UsageRange {
  const problems: string[] = [];
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (value !== undefined && Number.isNaN(startOfDay(value))) {
      problems.push(`${field} must be a calendar date (YYYY-MM-DD)`);
    }
  }
  if (problems.length > 0) throw new UsageRangeError(problems);
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -(DEFAULT_USAGE_RANGE_DAYS - 1));
  if (from > to) throw new UsageRangeError([`from (${from}) must not be after to (${to})`]);
  const days = (startOfDay(to) - startOfDay(from)) / DAY_MS + 1;
  if (days > MAX_USAGE_RANGE_DAYS) {
    throw new UsageRangeError([`from..to covers ${days} days; at most ${MAX_USAGE_RANGE_DAYS} days per request`]);
  }
  return { from, to };
}
