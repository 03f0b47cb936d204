import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { fromInt8, toInt8 } from '../../database/index.js';
import type { UsageCursor, UsageFilter, UsageRow } from '../domain/usage-export.js';
import type { UsageExportRepository } from '../domain/usage-export.repository.js';
import { KeyUsageOrmEntity } from './key-usage.orm-entity.js';

interface ExportRow {
  date: string;
  keyId: string;
  /** '0': no account. */
  accountId: string;
  requests: string;
  refused: string;
  bans: number;
}

@Injectable()
export class TypeOrmUsageExportRepository implements UsageExportRepository {
  constructor(@InjectRepository(KeyUsageOrmEntity) private readonly usage: Repository<KeyUsageOrmEntity>) {}

  async rows(
    from: string,
    to: string,
    after: UsageCursor | null,
    limit: number,
    filter: UsageFilter = {},
  ): Promise<UsageRow[]> {
    const query = this.usage
      .createQueryBuilder('u')
      // Dates as text: pg would turn a DATE into a Date at local midnight.
      .select("to_char(u.day, 'YYYY-MM-DD')", 'date')
      .addSelect('u.api_key_id', 'keyId')
      .addSelect('u.account_id', 'accountId')
      .addSelect('u.requests', 'requests')
      .addSelect('u.refused', 'refused')
      .addSelect('u.bans', 'bans')
      .where('u.day BETWEEN CAST(:from AS date) AND CAST(:to AS date)', { from, to })
      .orderBy('u.day', 'ASC')
      .addOrderBy('u.api_key_id', 'ASC')
      .addOrderBy('u.account_id', 'ASC')
      .limit(limit);
    if (filter.accountId !== undefined) {
      query.andWhere('u.account_id = :accountId', { accountId: toInt8(filter.accountId) });
    }
    if (after) {
      // Keyset paging on (day, key, account): a row comparison, served by the primary key's and the day's indexes.
      query.andWhere('(u.day, u.api_key_id, u.account_id) > (CAST(:afterDate AS date), :afterKey, :afterAccount)', {
        afterDate: after.date,
        afterKey: toInt8(after.keyId),
        afterAccount: toInt8(after.accountId ?? 0),
      });
    }
    const rows = await query.getRawMany<ExportRow>();
    return rows.map((r) => ({
      date: r.date,
      keyId: fromInt8(r.keyId),
      accountId: r.accountId === '0' ? null : fromInt8(r.accountId),
      requests: fromInt8(r.requests),
      refused: fromInt8(r.refused),
      bans: Number(r.bans),
    }));
  }
}
