import type { UsageCursor, UsageFilter, UsageRow } from './usage-export.js';

/** Reads every key's daily usage at once, for exports. */
export abstract class UsageExportRepository {
  /**
   * The rows from `from` to `to` (both included) that have traffic and match `filter`, ordered by
   * day, key id, then account (none first), starting after `after`; at most `limit`.
   */
  abstract rows(
    from: string,
    to: string,
    after: UsageCursor | null,
    limit: number,
    filter?: UsageFilter,
  ): Promise<UsageRow[]>;
}
