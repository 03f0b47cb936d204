import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { NewAuditEntry } from './audit-entry.js';

/**
 * Port: the audit trail, for any module whose admins change something. Record a
 * change to the database in the transaction that makes it, with one line:
 *
 * ```ts
 * await this.uow.run(async (tx) => {
 *   const account = await this.accounts.update(tx, id, changes);
 *   await this.audit.record(tx, { ...by, action: 'account.updated', target: { type: 'account', id: String(id) },
 *     changes: changesBetween(before, account, ['name', 'plan']) });
 * });
 * ```
 *
 * `changes` holds only the fields named (an allow-list): never a secret or a hash.
 */
export abstract class AuditTrail {
  /** Records `entry` in `tx`, timestamped now: it commits with the change or not at all. */
  abstract record(tx: Transaction, entry: NewAuditEntry): Promise<void>;
  /**
   * Records a change that took effect outside the database (a ban lifted in the
   * limiter), in a transaction of its own. Rejects when the log cannot be written.
   */
  abstract recordApplied(entry: NewAuditEntry): Promise<void>;
  /**
   * Records a new state of something every instance applies on its own (a plan
   * table: `target.id` names its content), once for all instances: skipped when the
   * latest entry of this action and target type already names `target.id`. True when recorded.
   */
  abstract recordShared(entry: NewAuditEntry): Promise<boolean>;
}
