import type { UsageCursor, UsageRow } from './usage-export.js';

/** Reads every key's daily usage at once, for exports. */
export abstract class UsageExportRepository {
  /**
   * The rows from `from` to `to` (both included) that have traffic, ordered by day then key id,
   * starting after `after`; at most `limit`.
   */
  abstract rows(from: string, to: string, after: UsageCursor | null, limit: number): Promise<UsageRow[]>;
}
