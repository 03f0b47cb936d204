import type { DailyUsage, KeyLastUse, UsageDelta } from './key-usage.js';

/** Where the daily usage of API keys is kept (one row per key, day and the account the key was in). */
export abstract class KeyUsageRepository {
  /** Adds each delta to its key's day (creating the day), in one statement; deltas of unknown keys are dropped. */
  abstract add(deltas: readonly UsageDelta[]): Promise<void>;
  /** Moves each key's last use (and its previous secret's) forward to these, never back; one statement. */
  abstract markUsed(uses: readonly KeyLastUse[]): Promise<void>;
  /** The days of a key from `from` to `to` (both included) that have a row, in date order. */
  abstract daily(keyId: number, from: string, to: string): Promise<DailyUsage[]>;
  /** The same for an account: every key's usage attributed to it, summed per day. */
  abstract dailyOfAccount(accountId: number, from: string, to: string): Promise<DailyUsage[]>;
  /** Deletes the days before `date`; resolves to the number of rows deleted. */
  abstract deleteBefore(date: string): Promise<number>;
}
