import type { HitOutcome, HitRequest, HitResult, WindowRule } from './fixed-window.js';

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
  /** The `RateLimit-Policy` value when it was known ahead (a plan's windows, made once); else made from `windows`. */
  readonly policy?: string;
}

function byShorterWindow(a: WindowView, b: WindowView): number {
  return a.durationMs - b.durationMs;
}

/** Allowed: fewest remaining first, then the shorter window. */
function byMostBinding(a: WindowView, b: WindowView): number {
  return a.remaining - b.remaining || byShorterWindow(a, b);
}

/** Rejected: the one that frees last first, then the shorter window. */
function byLastToFree(a: WindowView, b: WindowView): number {
  return b.resetAt - a.resetAt || byShorterWindow(a, b);
}

/**
 * The first of `windows` that sorts first by `order`, as `[...windows].sort(order)[0]`
 * would give (the sort is stable), with one pass and no copy: this runs on every request.
 * Only windows with nothing remaining when `fullOnly`; undefined when none qualifies.
 */
function first(
  windows: readonly WindowView[],
  order: (a: WindowView, b: WindowView) => number,
  fullOnly: boolean,
): WindowView | undefined {
  let best: WindowView | undefined;
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i];
    if (fullOnly && w.remaining !== 0) continue;
    if (best === undefined || order(w, best) < 0) best = w;
  }
  return best;
}

/**
 * The window the `X-RateLimit-*` headers describe.
 * Allowed: the one that binds most, i.e. fewest remaining, on a tie the shorter window.
 * Rejected: the window that rejected; when several did, the one that frees last
 * (so `Retry-After` is when a retry can succeed), on a tie the shorter one.
 * On a full tie, the first in `windows`.
 */
export function bindingWindow(windows: readonly WindowView[], rejected: boolean): WindowView {
  if (windows.length === 0) throw new Error('bindingWindow needs at least one window');
  if (rejected) {
    const full = first(windows, byLastToFree, true);
    if (full) return full;
  }
  return first(windows, byMostBinding, false) as WindowView; // there is at least one
}

/** Seconds from `now` until `at`, rounded up, at least 1. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** The `RateLimit-Policy` of each set of window rules (a plan's are one array, kept by the limiter): made once. */
const policies = new WeakMap<readonly WindowRule[], string>();

function policyOf(rules: readonly WindowRule[]): string {
  let policy = policies.get(rules);
  if (policy === undefined) {
    policy = policyHeader(rules);
    policies.set(rules, policy);
  }
  return policy;
}

/** Turns a storage answer into what the client is told. */
export function decide(request: HitRequest, result: HitResult): RateLimitDecision {
  const rules = request.windows;
  const policy = policyOf(rules);
  const windows = new Array<WindowView>(rules.length);
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    const counted = result.windows[i];
    windows[i] = {
      name: rule.name,
      limit: rule.limit,
      durationMs: rule.durationMs,
      remaining: Math.max(0, rule.limit - (counted?.count ?? 0)),
      resetAt: counted?.resetAt ?? result.now + rule.durationMs,
    };
  }
  if (result.outcome === 'banned') {
    const shortest = first(windows, byShorterWindow, false) as WindowView;
    const banUntil = result.banUntil ?? result.now;
    const binding: WindowView = { ...shortest, name: 'ban', remaining: 0, resetAt: banUntil };
    const decision: RateLimitDecision = {
      outcome: 'banned',
      now: result.now,
      windows,
      binding,
      retryAfterSeconds: secondsUntil(banUntil, result.now),
      policy,
    };
    return result.banStarted ? { ...decision, banStarted: true } : decision;
  }
  return overWindows(result.outcome, windows, result.now, policy);
}

/** A decision over `windows`: the binding window, and when to retry if refused. */
function overWindows(outcome: HitOutcome, windows: WindowView[], now: number, policy?: string): RateLimitDecision {
  const limited = outcome !== 'allowed';
  const binding = bindingWindow(windows, limited);
  const retryAfterSeconds = limited ? secondsUntil(binding.resetAt, now) : null;
  return { outcome, now, windows, binding, retryAfterSeconds, policy };
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
 * An allowed decision as it stands once its first `planWindows` windows (the plan's)
 * have taken the request back: one more remaining in each (never above the limit),
 * the binding window chosen again. Route windows (after them) are left as counted.
 */
export function refunded(decision: RateLimitDecision, planWindows: number): RateLimitDecision {
  if (decision.outcome !== 'allowed') return decision;
  const windows = decision.windows.map((w, i) =>
    i < planWindows ? { ...w, remaining: Math.min(w.limit, w.remaining + 1) } : w,
  );
  return overWindows('allowed', windows, decision.now, decision.policy);
}

/**
 * Every window as a client should read it: while banned, none has anything left
 * before the ban ends (remaining 0, reset no earlier than the ban's end); else as
 * counted. What the `RateLimit` header and `GET /rate-limit`-style reports show.
 */
export function reportedWindows(decision: RateLimitDecision): WindowView[] {
  const banEnd = banEndOf(decision);
  if (banEnd === null) return [...decision.windows];
  return decision.windows.map((w) => ({ ...w, remaining: 0, resetAt: reportedResetAt(w, banEnd) }));
}

/** When the ban of a banned decision ends (its binding window's reset); null when not banned. */
function banEndOf(decision: RateLimitDecision): number | null {
  return decision.outcome === 'banned' ? decision.binding.resetAt : null;
}

/** A window's reset as reported while banned: no earlier than the ban's end. */
function reportedResetAt(w: WindowView, banEnd: number): number {
  return Math.max(w.resetAt, banEnd);
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
 * (`setRateLimitHeaders` sets them on a response without building this object.)
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  setRateLimitHeaders({ setHeader: (name, value) => (headers[name] = value) }, decision);
  return headers;
}

/** Where `setRateLimitHeaders` writes: an Express or Node response. */
export interface HeaderTarget {
  setHeader(name: string, value: string): unknown;
}

/** Sets the headers of `rateLimitHeaders(decision)` on `res`, in that order (every response carries them). */
export function setRateLimitHeaders(res: HeaderTarget, decision: RateLimitDecision): void {
  const { binding } = decision;
  res.setHeader('X-RateLimit-Limit', String(binding.limit));
  res.setHeader('X-RateLimit-Remaining', String(binding.remaining));
  res.setHeader('X-RateLimit-Reset', String(resetSeconds(binding.resetAt)));
  res.setHeader('RateLimit-Policy', decision.policy ?? policyHeader(decision.windows));
  res.setHeader('RateLimit', stateHeader(decision));
  if (decision.retryAfterSeconds !== null) res.setHeader('Retry-After', String(decision.retryAfterSeconds));
}

/**
 * `RateLimit`: each window's remaining requests and seconds until it resets, as
 * `reportedWindows` gives them (while banned: nothing left until the ban ends),
 * built in one pass without copying the windows.
 */
function stateHeader(decision: RateLimitDecision): string {
  const { windows, now } = decision;
  const banEnd = banEndOf(decision);
  let value = '';
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i];
    const remaining = banEnd === null ? w.remaining : 0;
    const resetAt = banEnd === null ? w.resetAt : reportedResetAt(w, banEnd);
    value += `${i === 0 ? '' : ', '}"${w.name}";r=${remaining};t=${secondsUntil(resetAt, now)}`;
  }
  return value;
}

/** `RateLimit-Policy`: each window's limit and length, in one pass. */
function policyHeader(windows: readonly WindowRule[]): string {
  let value = '';
  for (let i = 0; i < windows.length; i++) {
    const { name, limit, durationMs } = windows[i];
    value += `${i === 0 ? '' : ', '}"${name}";q=${limit};w=${Math.round(durationMs / 1000)}`;
  }
  return value;
}
