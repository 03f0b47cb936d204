import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { Page } from '../../shared/paging/page.js';
import type { AuditEntry, AuditLogFilter, AuditPageRequest, NewAuditEntry } from './audit-entry.js';

/** Port: where audit entries are kept. */
export abstract class AuditLogRepository {
  /** Appends an entry in `tx`: it commits with the change it describes, or not at all. */
  abstract append(tx: Transaction, entry: NewAuditEntry, at: Date): Promise<void>;
  /**
   * Appends an entry unless the latest entry with the same action and target type
   * names the same target id; serialised across instances, so that several
   * instances applying the same change (a plan table) record it once. True when appended.
   */
  abstract appendIfChanged(entry: NewAuditEntry, at: Date): Promise<boolean>;
  /** Entries matching `filter`, newest first. */
  abstract page(filter: AuditLogFilter, page: AuditPageRequest): Promise<Page<AuditEntry>>;
  /** Deletes up to `batch` entries recorded before `before`; resolves to how many. */
  abstract deleteBatchBefore(before: Date, batch: number): Promise<number>;
}
