/** One window of the plan (`minute`, `day`) as the last response described it. */
export interface RateLimitWindow {
  readonly name: string;
  /** Requests the window holds (`RateLimit-Policy` q), when known. */
  readonly limit: number | null;
  /** Length of the window in ms (`RateLimit-Policy` w), when known. */
  readonly durationMs: number | null;
  /** Requests left in it after that response (`RateLimit` r). */
  readonly remaining: number;
  /** When it resets, on the client's clock (ms): arrival of the response plus `RateLimit` t. */
  readonly resetAt: number;
}

/** What a response said about the client's quota. */
export interface RateLimitState {
  /** `X-RateLimit-Limit`: the quota of the window that binds most. */
  readonly limit: number | null;
  /** `X-RateLimit-Remaining`: requests left in that window. */
  readonly remaining: number | null;
  /** `X-RateLimit-Reset`: when that window resets, Unix time in seconds (the server's clock). */
  readonly reset: number | null;
  /** `Retry-After` in seconds, on a refusal. */
  readonly retryAfterSeconds: number | null;
  /** Every window, from the `RateLimit` and `RateLimit-Policy` fields (both windows of the plan). */
  readonly windows: readonly RateLimitWindow[];
}

function integer(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** `"minute";r=59;t=60, "day";r=999;t=86400` → name → parameters. */
function dictionary(value: string | null): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const item of (value ?? '').split(',')) {
    const [rawName, ...parameters] = item.trim().split(';');
    const name = rawName?.trim().replace(/^"|"$/g, '');
    if (!name) continue;
    const fields: Record<string, number> = {};
    for (const parameter of parameters) {
      const [key, number] = parameter.split('=');
      const parsed = integer(number ?? null);
      if (key && parsed !== null) fields[key.trim()] = parsed;
    }
    out.set(name, fields);
  }
  return out;
}

/**
 * Reads the rate-limit headers the service sends with every response. `receivedAt`
 * is the client's clock when the response arrived: window resets are kept on that
 * clock (from the relative `t`), so a skewed server clock cannot make the client early.
 */
export function readRateLimit(headers: Headers, receivedAt: number): RateLimitState {
  const policy = dictionary(headers.get('RateLimit-Policy'));
  const windows: RateLimitWindow[] = [];
  for (const [name, { r, t }] of dictionary(headers.get('RateLimit'))) {
    if (r === undefined || t === undefined) continue;
    const { q, w } = policy.get(name) ?? {};
    windows.push({
      name,
      limit: q ?? null,
      durationMs: w === undefined ? null : w * 1000,
      remaining: r,
      resetAt: receivedAt + t * 1000,
    });
  }
  const remaining = integer(headers.get('X-RateLimit-Remaining'));
  const reset = integer(headers.get('X-RateLimit-Reset'));
  if (windows.length === 0 && remaining !== null && reset !== null) {
    // Without the IETF fields: the binding window alone, its reset on the server's clock.
    windows.push({ name: 'binding', limit: null, durationMs: null, remaining, resetAt: reset * 1000 });
  }
  return {
    limit: integer(headers.get('X-RateLimit-Limit')),
    remaining,
    reset,
    retryAfterSeconds: integer(headers.get('Retry-After')),
    windows,
  };
}
