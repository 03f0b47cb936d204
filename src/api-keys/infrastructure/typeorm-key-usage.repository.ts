import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { fromInt8, toInt8 } from '../../database/index.js';
import type { DailyUsage, KeyLastUse, UsageDelta } from '../domain/key-usage.js';
import type { KeyUsageRepository } from '../domain/key-usage.repository.js';
import { KeyUsageOrmEntity } from './key-usage.orm-entity.js';

// One statement for a whole flush: the deltas as arrays, added to existing days. Keys
// that no longer exist are skipped rather than failing the batch on the foreign key.
// account_id 0 stands for "no account" (it is part of the primary key).
const ADD = `
INSERT INTO api_key_usage (api_key_id, day, account_id, requests, refused, bans)
SELECT d.api_key_id, d.day, COALESCE(d.account_id, 0), d.requests, d.refused, d.bans
  FROM unnest($1::bigint[], $2::date[], $3::bigint[], $4::bigint[], $5::bigint[], $6::integer[])
       AS d(api_key_id, day, account_id, requests, refused, bans)
 WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = d.api_key_id)
ON CONFLICT (api_key_id, day, account_id) DO UPDATE
   SET requests = api_key_usage.requests + EXCLUDED.requests,
       refused = api_key_usage.refused + EXCLUDED.refused,
       bans = api_key_usage.bans + EXCLUDED.bans`;

// GREATEST ignores NULLs: a flush of another instance that saw an older use never moves a time back.
const MARK_USED = `
UPDATE api_keys k
   SET last_used_at = GREATEST(k.last_used_at, u.at),
       previous_key_last_used_at = CASE WHEN k.previous_key_hash IS NULL THEN NULL
                                        ELSE GREATEST(k.previous_key_last_used_at, u.previous_at) END
  FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) AS u(api_key_id, at, previous_at)
 WHERE k.id = u.api_key_id`;

interface DailyRow {
  date: string;
  requests: string;
  refused: string;
  /** SUM of integers: bigint, a string. */
  bans: string;
}

@Injectable()
export class TypeOrmKeyUsageRepository implements KeyUsageRepository {
  constructor(@InjectRepository(KeyUsageOrmEntity) private readonly rows: Repository<KeyUsageOrmEntity>) {}

  async add(deltas: readonly UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.rows.manager.query(ADD, [
      deltas.map((d) => toInt8(d.keyId)),
      deltas.map((d) => d.date),
      deltas.map((d) => (d.accountId === null ? null : toInt8(d.accountId))),
      deltas.map((d) => d.requests),
      deltas.map((d) => d.refused),
      deltas.map((d) => d.bans),
    ]);
  }

  async markUsed(uses: readonly KeyLastUse[]): Promise<void> {
    if (uses.length === 0) return;
    await this.rows.manager.query(MARK_USED, [
      uses.map((u) => toInt8(u.keyId)),
      uses.map((u) => u.at),
      uses.map((u) => u.previousAt),
    ]);
  }

  daily(keyId: number, from: string, to: string): Promise<DailyUsage[]> {
    return this.summed('u.api_key_id = :id', keyId, from, to);
  }

  dailyOfAccount(accountId: number, from: string, to: string): Promise<DailyUsage[]> {
    return this.summed('u.account_id = :id', accountId, from, to);
  }

  /** The rows of one key or account (`where` names `:id`), summed per day (a key may have moved that day). */
  private async summed(where: string, id: number, from: string, to: string): Promise<DailyUsage[]> {
    const rows = await this.rows
      .createQueryBuilder('u')
      // Dates as text: pg would turn a DATE into a Date at local midnight.
      .select("to_char(u.day, 'YYYY-MM-DD')", 'date')
      .addSelect('SUM(u.requests)', 'requests')
      .addSelect('SUM(u.refused)', 'refused')
      .addSelect('SUM(u.bans)', 'bans')
      .where(where, { id: toInt8(id) })
      .andWhere('u.day BETWEEN CAST(:from AS date) AND CAST(:to AS date)', { from, to })
      .groupBy('u.day')
      .orderBy('u.day', 'ASC')
      .getRawMany<DailyRow>();
    return rows.map((r) => ({
      date: r.date,
      requests: fromInt8(r.requests),
      refused: fromInt8(r.refused),
      bans: Number(r.bans),
    }));
  }

  async deleteBefore(date: string): Promise<number> {
    const result = await this.rows.delete({ day: LessThan(date) });
    return result.affected ?? 0;
  }
}
