import type { DailyUsage } from './key-usage.js';

/** One key's usage on one UTC day, as the export lists it (ordered by day, then key). */
export interface UsageRow extends DailyUsage {
  readonly keyId: number;
  /** The account the key belonged to; always null until keys belong to accounts. */
  readonly accountId: number | null;
}

/** Where the next page of an export starts: after this day and key. */
export interface UsageCursor {
  readonly date: string;
  readonly keyId: number;
}

/** At most this many rows per page of the export (one page of a CSV export, too). */
export const MAX_EXPORT_PAGE = 1_000;

/** Opaque cursors, as the other lists' (`v1:` versioned, base64url): `u1:<day>:<key id>`. */
export function encodeUsageCursor(after: UsageCursor): string {
  return Buffer.from(`u1:${after.date}:${after.keyId}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when the cursor is not one of ours. */
export function decodeUsageCursor(cursor: string): UsageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const match = /^u1:(\d{4}-\d{2}-\d{2}):([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const keyId = Number(match[2]);
  return Number.isSafeInteger(keyId) ? { date: match[1], keyId } : null;
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
