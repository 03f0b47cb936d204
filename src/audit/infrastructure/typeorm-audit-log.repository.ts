import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { fromInt8, managerOf, toInt8 } from '../../database/index.js';
import { type Page, toPage } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type {
  AuditActor,
  AuditChanges,
  AuditEntry,
  AuditLogFilter,
  AuditPageRequest,
  NewAuditEntry,
} from '../domain/audit-entry.js';
import type { AuditLogRepository } from '../domain/audit-log.repository.js';
import { AuditEntryOrmEntity } from './audit-entry.orm-entity.js';

// Serialises recordShared across instances sharing one database.
const SHARED_CHANGE_LOCK = 7_301_002;

const INSERT = `INSERT INTO audit_log
  (at, actor_type, actor_key_id, actor_address, request_id, action, target_type, target_id, changes)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`;

/** The parameters of {@link INSERT}. */
function valuesOf(entry: NewAuditEntry, at: Date): unknown[] {
  const { actor } = entry;
  return [
    at,
    actor.type,
    actor.type === 'api_key' ? toInt8(actor.id) : null,
    actor.type === 'api_key' ? (actor.address ?? null) : null,
    entry.requestId ?? null,
    entry.action,
    entry.target.type,
    entry.target.id,
    JSON.stringify(entry.changes),
  ];
}

function actorOf(row: AuditEntryOrmEntity): AuditActor {
  if (row.actorType === 'api_key' && row.actorKeyId !== null) {
    return row.actorAddress === null
      ? { type: 'api_key', id: fromInt8(row.actorKeyId) }
      : { type: 'api_key', id: fromInt8(row.actorKeyId), address: row.actorAddress };
  }
  return { type: row.actorType === 'cli' ? 'cli' : 'system' };
}

function toEntry(row: AuditEntryOrmEntity): AuditEntry {
  return {
    id: fromInt8(row.id),
    at: row.at,
    actor: actorOf(row),
    ...(row.requestId === null ? {} : { requestId: row.requestId }),
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    changes: row.changes as AuditChanges,
  };
}

@Injectable()
export class TypeOrmAuditLogRepository implements AuditLogRepository {
  constructor(@InjectRepository(AuditEntryOrmEntity) private readonly rows: Repository<AuditEntryOrmEntity>) {}

  async append(tx: Transaction, entry: NewAuditEntry, at: Date): Promise<void> {
    await managerOf(tx).query(INSERT, valuesOf(entry, at));
  }

  appendIfChanged(entry: NewAuditEntry, at: Date): Promise<boolean> {
    return this.rows.manager.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [SHARED_CHANGE_LOCK]);
      const latest = await manager.getRepository(AuditEntryOrmEntity).findOne({
        select: { id: true, targetId: true },
        where: { action: entry.action, targetType: entry.target.type },
        order: { id: 'DESC' },
      });
      if (latest?.targetId === entry.target.id) return false;
      await manager.query(INSERT, valuesOf(entry, at));
      return true;
    });
  }

  async page(filter: AuditLogFilter, { limit, beforeId }: AuditPageRequest): Promise<Page<AuditEntry>> {
    const query = this.rows
      .createQueryBuilder('e')
      .orderBy('e.id', 'DESC')
      .limit(limit + 1);
    if (beforeId !== null) query.andWhere('e.id < :beforeId', { beforeId: toInt8(beforeId) });
    if (filter.action !== undefined) query.andWhere('e.action = :action', { action: filter.action });
    if (filter.targetType !== undefined)
      query.andWhere('e.target_type = :targetType', { targetType: filter.targetType });
    if (filter.targetId !== undefined) query.andWhere('e.target_id = :targetId', { targetId: filter.targetId });
    if (filter.actorKeyId !== undefined) {
      query.andWhere('e.actor_key_id = :actorKeyId', { actorKeyId: toInt8(filter.actorKeyId) });
    }
    if (filter.from !== undefined) query.andWhere('e.at >= :from', { from: filter.from });
    if (filter.to !== undefined) query.andWhere('e.at < :to', { to: filter.to });
    return toPage((await query.getMany()).map(toEntry), limit);
  }

  async deleteBatchBefore(before: Date, batch: number): Promise<number> {
    const [, count] = await this.rows.manager.query<[unknown, number]>(
      `DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 ORDER BY id LIMIT $2)`,
      [before, batch],
    );
    return count;
  }
}
