import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { fromInt8, toInt8 } from '../../database/index.js';
import type { UsageCursor, UsageRow } from '../domain/usage-export.js';
import type { UsageExportRepository } from '../domain/usage-export.repository.js';
import { KeyUsageOrmEntity } from './key-usage.orm-entity.js';

interface ExportRow {
  date: string;
  keyId: string;
  requests: string;
  refused: string;
  bans: number;
}

@Injectable()
export class TypeOrmUsageExportRepository implements UsageExportRepository {
  constructor(@InjectRepository(KeyUsageOrmEntity) private readonly usage: Repository<KeyUsageOrmEntity>) {}

  async rows(from: string, to: string, after: UsageCursor | null, limit: number): Promise<UsageRow[]> {
    const query = this.usage
      .createQueryBuilder('u')
      // Dates as text: pg would turn a DATE into a Date at local midnight.
      .select("to_char(u.day, 'YYYY-MM-DD')", 'date')
      .addSelect('u.api_key_id', 'keyId')
      .addSelect('u.requests', 'requests')
      .addSelect('u.refused', 'refused')
      .addSelect('u.bans', 'bans')
      .where('u.day BETWEEN CAST(:from AS date) AND CAST(:to AS date)', { from, to })
      .orderBy('u.day', 'ASC')
      .addOrderBy('u.api_key_id', 'ASC')
      .limit(limit);
    if (after) {
      // Keyset paging on (day, key): a row comparison, served by the primary key's and the day's indexes.
      query.andWhere('(u.day, u.api_key_id) > (CAST(:afterDate AS date), :afterKey)', {
        afterDate: after.date,
        afterKey: toInt8(after.keyId),
      });
    }
    const rows = await query.getRawMany<ExportRow>();
    return rows.map((r) => ({
      date: r.date,
      keyId: fromInt8(r.keyId),
      accountId: null,
      requests: fromInt8(r.requests),
      refused: fromInt8(r.refused),
      bans: Number(r.bans),
    }));
  }
}
