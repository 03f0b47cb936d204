/**
 * Who made a change: an admin's API key (with the address it came from), the keys
 * command line, or the service itself (a plan table it reloaded).
 */
export type AuditActor =
  | { readonly type: 'api_key'; readonly id: number; readonly address?: string }
  | { readonly type: 'cli' }
  | { readonly type: 'system' };

/** What a change was made to, e.g. `{type: 'api_key', id: '7'}`. */
export interface AuditTarget {
  readonly type: string;
  readonly id: string;
}

/** A JSON value as stored in an entry's changes. */
export type AuditValue =
  string | number | boolean | null | readonly AuditValue[] | { readonly [k: string]: AuditValue };

/** Changed fields, each as `[before, after]` (null: absent before or after). */
export type AuditChanges = Readonly<Record<string, readonly [AuditValue, AuditValue]>>;

/** Who acted, and the request they acted in (absent outside HTTP). */
export interface AuditContext {
  readonly actor: AuditActor;
  readonly requestId?: string;
}

/** One change to record: `action` is dotted, `<target type>.<past participle>` (`api_key.rolled`). */
export interface NewAuditEntry extends AuditContext {
  readonly action: string;
  readonly target: AuditTarget;
  readonly changes: AuditChanges;
}

/** A recorded change. */
export interface AuditEntry extends NewAuditEntry {
  readonly id: number;
  readonly at: Date;
}

/** What the command line and the service itself act as. */
export const CLI: AuditContext = { actor: { type: 'cli' } };
export const SYSTEM: AuditContext = { actor: { type: 'system' } };

/** Filters of the audit log (all optional; `from` included, `to` excluded). */
export interface AuditLogFilter {
  readonly action?: string;
  readonly targetType?: string;
  readonly targetId?: string;
  readonly actorKeyId?: number;
  readonly from?: Date;
  readonly to?: Date;
}

/** A keyset page of the log, newest first: entries with ids below `beforeId`. */
export interface AuditPageRequest {
  readonly limit: number;
  readonly beforeId: number | null;
}

/** A value as an entry stores it: dates as ISO strings, arrays and plain objects copied, anything else as null. */
export function auditValue(value: unknown): AuditValue {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(auditValue);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, auditValue(v)]));
  }
  return null;
}

/**
 * The fields of `fields` (an allow-list: nothing else ever reaches the log, so no
 * secret or hash can) whose values differ between `before` and `after`, as
 * `[before, after]`. A record that did not exist before, or no longer does, is null.
 */
export function changesBetween<T extends object>(
  before: T | null,
  after: T | null,
  fields: readonly (keyof T & string)[],
): AuditChanges {
  const changes: Record<string, readonly [AuditValue, AuditValue]> = {};
  for (const field of fields) {
    const was = auditValue(before?.[field]);
    const is = auditValue(after?.[field]);
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[field] = [was, is];
  }
  return changes;
}

/** Whether `changes` names no field. */
export function isEmptyChange(changes: AuditChanges): boolean {
  return Object.keys(changes).length === 0;
}

/** An audit action's name: lower-case words joined by `_`, in two or more dotted parts. */
export const AUDIT_ACTION_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
