import type { DailyUsage } from './key-usage.js';

/** One key's usage on one UTC day, as the export lists it (ordered by day, then key). */
export interface UsageRow extends DailyUsage {
  readonly keyId: number;
  /** The account the key belonged to when the requests were made; null: none. */
  readonly accountId: number | null;
}

/**
 * Where the next page of an export starts: after this day, key and account (a key that
 * moved between accounts during a day has a row for each; null: none, sorted first).
 */
export interface UsageCursor {
  readonly date: string;
  readonly keyId: number;
  readonly accountId: number | null;
}

/** What an export is narrowed to. */
export interface UsageFilter {
  /** Only the usage attributed to this account. */
  readonly accountId?: number;
}

/** At most this many rows per page of the export (one page of a CSV export, too). */
export const MAX_EXPORT_PAGE = 1_000;

/**
 * Opaque cursors, as the other lists' (versioned, base64url): `u2:<day>:<key id>:<account id, 0: none>`.
 * (`u1:<day>:<key id>`, from before accounts, is still read: after every row of that key and day.)
 */
export function encodeUsageCursor(after: UsageCursor): string {
  return Buffer.from(`u2:${after.date}:${after.keyId}:${after.accountId ?? 0}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when the cursor is not one of ours. */
export function decodeUsageCursor(cursor: string): UsageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^u2:(\d{4}-\d{2}-\d{2}):([1-9]\d{0,15}):(0|[1-9]\d{0,15})$/.exec(text);
  if (match) {
    const [keyId, accountId] = [Number(match[2]), Number(match[3])];
    if (!Number.isSafeInteger(keyId) || !Number.isSafeInteger(accountId)) return null;
    return { date: match[1], keyId, accountId: accountId === 0 ? null : accountId };
  }
  const old = /^u1:(\d{4}-\d{2}-\d{2}):([1-9]\d{0,15})$/.exec(text);
  if (!old) return null;
  const keyId = Number(old[2]);
  return Number.isSafeInteger(keyId) ? { date: old[1], keyId, accountId: Number.MAX_SAFE_INTEGER } : null;
}

export const USAGE_CSV_COLUMNS = ['date', 'keyId', 'accountId', 'requests', 'refused', 'bans'] as const;

/**
 * The rows as CSV (RFC 4180: CRLF line ends, a header row). Every field is a day, a
 * number or empty (no account), so nothing needs quoting.
 */
export function usageCsv(rows: readonly UsageRow[]): string {
  const lines = [USAGE_CSV_COLUMNS.join(',')];
  for (const row of rows) {
    lines.push([row.date, row.keyId, row.accountId ?? '', row.requests, row.refused, row.bans].map(String).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
