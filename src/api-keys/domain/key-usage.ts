import { DAY_MS } from '../../shared/clock.js';

/** What one API key did on one UTC day, as the limiter saw it. */
export interface UsageCounts {
  /** Requests counted against the plan (served by it; they used quota). */
  readonly requests: number;
  /** Requests answered 429 (`RATE_LIMIT_EXCEEDED` or `API_KEY_BANNED`); they used no quota. */
  readonly refused: number;
  /** Bans that started. */
  readonly bans: number;
}

/** A day's usage of a key; `date` is a UTC calendar day, `YYYY-MM-DD`. */
export interface DailyUsage extends UsageCounts {
  readonly date: string;
}

/** Usage to add to a key's day (one instance's counts since its last flush). */
export interface UsageDelta extends DailyUsage {
  readonly keyId: number;
  /** The account the key was in when the requests were made (null: none): usage is attributed to it. */
  readonly accountId: number | null;
}

/** When a key was last used (by any secret), and by its previous secret after a roll (null: not since the flush before). */
export interface KeyLastUse {
  readonly keyId: number;
  readonly at: Date;
  readonly previousAt: Date | null;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC at the start of a `YYYY-MM-DD` day, or NaN when it is not a real calendar day. */
export function startOfDay(date: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return Number.NaN;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) || utcDate(ms) !== date ? Number.NaN : ms;
}

/** `date` moved by `days` (negative: earlier). */
export function addDays(date: string, days: number): string {
  return utcDate(startOfDay(date) + days * DAY_MS);
}

/** Every day from `from` to `to`, both included, with the usage found (zeros for days without any). */
export function everyDay(from: string, to: string, found: readonly DailyUsage[]): DailyUsage[] {
  const byDate = new Map(found.map((day) => [day.date, day]));
  const days: DailyUsage[] = [];
  for (let ms = startOfDay(from); ms <= startOfDay(to); ms += DAY_MS) {
    const date = utcDate(ms);
    days.push(byDate.get(date) ?? { date, requests: 0, refused: 0, bans: 0 });
  }
  return days;
}
