import { Injectable, Optional } from '@nestjs/common';
import { Clock, systemClock } from '../../shared/clock.js';
import { toPage, type Page } from '../../shared/paging/page.js';
import { UsageRangeError } from '../domain/api-key.errors.js';
import { utcDate } from '../domain/key-usage.js';
import { usageRange } from '../domain/key-usage-range.js';
import { decodeUsageCursor, type UsageRow } from '../domain/usage-export.js';
import { UsageExportRepository } from '../domain/usage-export.repository.js';

/** Every key's usage per day, for billing exports (GET /admin/usage). */
@Injectable()
export class UsageExportService {
  constructor(
    private readonly usage: UsageExportRepository,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  /**
   * One page of the rows with traffic from `from` to `to` (default: the last 30 days; at most
   * 366), by day then key, of one account's usage when `accountId` is given (an account that
   * does not exist, or no longer does, has none or its history). Counts not yet flushed by an
   * instance are not in it.
   */
  async page(query: {
    readonly from?: string;
    readonly to?: string;
    readonly limit: number;
    readonly cursor?: string;
    readonly accountId?: number;
  }): Promise<Page<UsageRow>> {
    const { from, to } = usageRange(query, utcDate(this.clock.now().getTime()));
    const after = query.cursor === undefined ? null : decodeUsageCursor(query.cursor);
    if (query.cursor !== undefined && after === null) {
      throw new UsageRangeError(['cursor is not a valid paging cursor']);
    }
    const filter = query.accountId === undefined ? {} : { accountId: query.accountId };
    return toPage(await this.usage.rows(from, to, after, query.limit + 1, filter), query.limit);
  }
}
