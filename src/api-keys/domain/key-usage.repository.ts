import type { DailyUsage, UsageDelta } from './key-usage.js';

/** Where the daily usage of API keys is kept (one row per key and day). */
export interface KeyUsageRepository {
  /** Adds each delta to its key's day (creating the day), in one statement; deltas of unknown keys are dropped. */
  add(deltas: readonly UsageDelta[]): Promise<void>;
  /** The days of a key from `from` to `to` (both included) that have a row, in date order. */
  daily(keyId: number, from: string, to: string): Promise<DailyUsage[]>;
  /** Deletes the days before `date`; resolves to the number of rows deleted. */
  deleteBefore(date: string): Promise<number>;
}

export const KEY_USAGE_REPOSITORY = Symbol('KeyUsageRepository');
