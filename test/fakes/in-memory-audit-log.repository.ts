import type {
  AuditEntry,
  AuditLogFilter,
  AuditPageRequest,
  NewAuditEntry,
} from '../../src/audit/domain/audit-entry.js';
import type { AuditLogRepository } from '../../src/audit/domain/audit-log.repository.js';
import { AuditTrailService } from '../../src/audit/application/audit-trail.service.js';
import type { Clock } from '../../src/shared/clock.js';
import type { Transaction } from '../../src/shared/unit-of-work/unit-of-work.js';
import { type Page, toPage } from '../../src/shared/paging/page.js';
import { InMemoryTables } from './in-memory-tables.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';

/** Audit entries in the shared in-memory tables (`audit_log`), rolled back with a failed transaction. */
export class InMemoryAuditLogRepository implements AuditLogRepository {
  private readonly rows: Map<number, AuditEntry>;
  private lastId = 0;

  constructor(tables: InMemoryTables = new InMemoryTables()) {
    this.rows = tables.table<number, AuditEntry>('audit_log');
  }

  /** Every entry, oldest first. */
  get entries(): AuditEntry[] {
    return [...this.rows.values()].sort((a, b) => a.id - b.id);
  }

  async append(_tx: Transaction, entry: NewAuditEntry, at: Date): Promise<void> {
    this.insert(entry, at);
  }

  async appendIfChanged(entry: NewAuditEntry, at: Date): Promise<boolean> {
    const latest = this.entries.filter((e) => e.action === entry.action && e.target.type === entry.target.type).at(-1);
    if (latest?.target.id === entry.target.id) return false;
    this.insert(entry, at);
    return true;
  }

  async page(filter: AuditLogFilter, { limit, beforeId }: AuditPageRequest): Promise<Page<AuditEntry>> {
    const rows = this.entries
      .reverse()
      .filter(
        (e) =>
          (beforeId === null || e.id < beforeId) &&
          (filter.action === undefined || e.action === filter.action) &&
          (filter.targetType === undefined || e.target.type === filter.targetType) &&
          (filter.targetId === undefined || e.target.id === filter.targetId) &&
          (filter.actorKeyId === undefined || (e.actor.type === 'api_key' && e.actor.id === filter.actorKeyId)) &&
          (filter.from === undefined || e.at >= filter.from) &&
          (filter.to === undefined || e.at < filter.to),
      );
    return toPage(rows.slice(0, limit + 1), limit);
  }

  async deleteBatchBefore(before: Date, batch: number): Promise<number> {
    const old = this.entries.filter((e) => e.at < before).slice(0, batch);
    for (const e of old) this.rows.delete(e.id);
    return old.length;
  }

  private insert(entry: NewAuditEntry, at: Date): void {
    const id = ++this.lastId;
    this.rows.set(id, { ...entry, id, at });
  }
}

/** The audit trail of the application over in-memory tables: its log, and the unit of work it shares with its callers. */
export function inMemoryAuditTrail(
  tables: InMemoryTables = new InMemoryTables(),
  clock?: Clock,
): { readonly log: InMemoryAuditLogRepository; readonly uow: InMemoryUnitOfWork; readonly trail: AuditTrailService } {
  const log = new InMemoryAuditLogRepository(tables);
  const uow = new InMemoryUnitOfWork(tables);
  return { log, uow, trail: new AuditTrailService(log, uow, clock) };
}
