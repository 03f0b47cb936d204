import type { HitOutcome, HitRequest, HitResult } from './fixed-window.js';

/** A window as the client sees it. */
export interface WindowView {
  readonly name: string;
  readonly limit: number;
  readonly durationMs: number;
  readonly remaining: number;
  /** When the window resets (ms since the epoch); a window not yet open would end a full length from now. */
  readonly resetAt: number;
}

export interface RateLimitDecision {
  readonly outcome: HitOutcome;
  readonly now: number;
  /** Every window, in the order of the rules. */
  readonly windows: readonly WindowView[];
  /** What `X-RateLimit-*` describe (see `bindingWindow`). */
  readonly binding: WindowView;
  /** Seconds until a retry can succeed; null when allowed. */
  readonly retryAfterSeconds: number | null;
  /** Present when this request started the client's ban. */
  readonly banStarted?: true;
}

function byShorterWindow(a: WindowView, b: WindowView): number {
  return a.durationMs - b.durationMs;
}

/**
 * The window the `X-RateLimit-*` headers describe.
 * Allowed: the one that binds most, i.e. fewest remaining, on a tie the shorter window.
 * Rejected: the window that rejected; when several did, the one that frees last
 * (so `Retry-After` is when a retry can succeed), on a tie the shorter one.
 */
export function bindingWindow(windows: readonly WindowView[], rejected: boolean): WindowView {
  if (windows.length === 0) throw new Error('bindingWindow needs at least one window');
  if (rejected) {
    const full = windows.filter((w) => w.remaining === 0);
    if (full.length > 0) {
      return [...full].sort((a, b) => b.resetAt - a.resetAt || byShorterWindow(a, b))[0];
    }
  }
  return [...windows].sort((a, b) => a.remaining - b.remaining || byShorterWindow(a, b))[0];
}

/** Seconds from `now` until `at`, rounded up, at least 1. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** Turns a storage answer into what the client is told. */
export function decide(request: HitRequest, result: HitResult): RateLimitDecision {
  const windows = request.windows.map((rule, i): WindowView => {
    const count = result.windows[i]?.count ?? 0;
    return {
      name: rule.name,
      limit: rule.limit,
      durationMs: rule.durationMs,
      remaining: Math.max(0, rule.limit - count),
      resetAt: result.windows[i]?.resetAt ?? result.now + rule.durationMs,
    };
  });
  if (result.outcome === 'banned') {
    const shortest = [...windows].sort(byShorterWindow)[0];
    const banUntil = result.banUntil ?? result.now;
    const binding: WindowView = { ...shortest, name: 'ban', remaining: 0, resetAt: banUntil };
    const decision: RateLimitDecision = {
      outcome: 'banned',
      now: result.now,
      windows,
      binding,
      retryAfterSeconds: secondsUntil(banUntil, result.now),
    };
    return result.banStarted ? { ...decision, banStarted: true } : decision;
  }
  return overWindows(result.outcome, windows, result.now);
}

/** A decision over `windows`: the binding window, and when to retry if refused. */
function overWindows(outcome: HitOutcome, windows: WindowView[], now: number): RateLimitDecision {
  const limited = outcome !== 'allowed';
  const binding = bindingWindow(windows, limited);
  return { outcome, now, windows, binding, retryAfterSeconds: limited ? secondsUntil(binding.resetAt, now) : null };
}

/**
 * A route's own window (`@Throttle`) beside the plan's: one decision over every
 * window, binding and `Retry-After` chosen as for the plan alone. `route` counted
 * only if the plan allowed the request, so the plan cannot have refused it.
 */
export function withRouteWindow(plan: RateLimitDecision | null, route: RateLimitDecision): RateLimitDecision {
  if (!plan) return route;
  return overWindows(route.outcome, [...plan.windows, ...route.windows], route.now);
}

/**
 * Every window as a client should read it: while banned, none has anything left
 * before the ban ends (remaining 0, reset no earlier than the ban's end); else as
 * counted. What the `RateLimit` header and `GET /rate-limit`-style reports show.
 */
export function reportedWindows(decision: RateLimitDecision): WindowView[] {
  if (decision.outcome !== 'banned') return [...decision.windows];
  const banEnd = decision.binding.resetAt;
  return decision.windows.map((w) => ({ ...w, remaining: 0, resetAt: Math.max(w.resetAt, banEnd) }));
}

/** A time (ms since the epoch) as `X-RateLimit-Reset` gives it: Unix seconds, rounded up (never early). */
export function resetSeconds(at: number): number {
  return Math.ceil(at / 1000);
}

/**
 * Response headers for a decision: `X-RateLimit-Limit`, `-Remaining` and `-Reset`
 * (Unix seconds, rounded up so a client waiting until then is never early) for
 * the binding window, plus the IETF draft fields `RateLimit-Policy` and
 * `RateLimit` describing every window, and `Retry-After` on a rejection.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const { binding, now } = decision;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(binding.limit),
    'X-RateLimit-Remaining': String(binding.remaining),
    'X-RateLimit-Reset': String(resetSeconds(binding.resetAt)),
    'RateLimit-Policy': decision.windows
      .map((w) => `"${w.name}";q=${w.limit};w=${Math.round(w.durationMs / 1000)}`)
      .join(', '),
    RateLimit: reportedWindows(decision)
      .map((w) => `"${w.name}";r=${w.remaining};t=${secondsUntil(w.resetAt, now)}`)
      .join(', '),
  };
  if (decision.retryAfterSeconds !== null) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}
