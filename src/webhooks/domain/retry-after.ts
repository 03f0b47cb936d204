/** Statuses whose `Retry-After` says when the receiver can take the delivery again. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/**
 * A `Retry-After` header (RFC 9110: delay-seconds or an HTTP-date) in milliseconds from
 * `now`, for a 429 or a 503; null for any other status or a missing or unparseable header.
 * A date in the past is 0 (retry now).
 */
export function retryAfterMs(status: number, header: string | undefined, now: number): number | null {
  if (!RETRY_AFTER_STATUSES.has(status) || header === undefined) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) {
    const ms = Number(value) * 1000;
    return Number.isSafeInteger(ms) ? ms : null;
  }
  // An HTTP-date starts with its weekday (IMF-fixdate, RFC 850 or asctime: Date.parse reads all three); asctime
  // names no zone but is GMT, which Date.parse must be told, or it reads the machine's local time.
  if (!/^[A-Za-z]{3}/.test(value)) return null;
  const date = Date.parse(/GMT$/i.test(value) ? value : `${value} GMT`);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
