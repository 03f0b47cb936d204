/** Length of the two windows every plan has. */
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** One fixed window: at most `limit` requests within `durationMs` of the first one. */
export interface WindowRule {
  readonly name: string;
  readonly limit: number;
  readonly durationMs: number;
}

/** More than `threshold` rejected requests within `windowMs` ban the client for `durationMs`. */
export interface BanRule {
  readonly threshold: number;
  readonly durationMs: number;
  readonly windowMs: number;
}

export interface HitRequest {
  /** All windows must have room; an allowed request counts in each, a rejected one in none. */
  readonly windows: readonly WindowRule[];
  readonly ban: BanRule | null;
  /** false: only report the state (nothing is counted, nothing is rejected). */
  readonly consume: boolean;
}

export type HitOutcome = 'allowed' | 'limited' | 'banned';

export interface WindowCount {
  /** Requests counted in the window, this one included when it was allowed. */
  readonly count: number;
  /** When the window ends (ms since the epoch); null while no window is open. */
  readonly resetAt: number | null;
}

export interface HitResult {
  readonly outcome: HitOutcome;
  /** The storage's clock when it decided (ms since the epoch): Redis time for Redis. */
  readonly now: number;
  /** One entry per rule of the request, in the same order. */
  readonly windows: readonly WindowCount[];
  /** End of the ban when banned. */
  readonly banUntil: number | null;
  /** Present when this very request started the ban (so a ban is reported once, by one instance). */
  readonly banStarted?: true;
}

interface Counter {
  start: number;
  count: number;
}

/**
 * The counters of one client (an API key or an IP address): O(1) state, no
 * per-hit timestamps. Windows are keyed by their length, so a plan change keeps
 * the counts.
 */
export interface ClientCounters {
  readonly windows: Map<number, Counter>;
  rejections: Counter | null;
  banUntil: number;
}

export function newClientCounters(): ClientCounters {
  return { windows: new Map(), rejections: null, banUntil: 0 };
}

function live(counter: Counter | null | undefined, durationMs: number, now: number): Counter | null {
  return counter && counter.start + durationMs > now ? counter : null;
}

/**
 * One request against a client's counters, at `now`: the semantics both storages
 * implement (the Redis script is the same algorithm over keys with TTLs).
 *
 * - A window opens at the first request after the previous one ended, and lasts
 *   its length (fixed window anchored at the client's first request).
 * - A banned client is refused without counting anything.
 * - A request is allowed only if every window has room; then it counts in all.
 * - A refused request counts in no window, only as a rejection; more than
 *   `ban.threshold` rejections within `ban.windowMs` start a ban.
 *
 * `windows` are the counters of the windows when another client's are shared (e.g. the
 * keys of one account share its windows); the ban and the rejections stay `state`'s.
 *
 * Runs on every request: plain loops, no closures (see the helpers below).
 */
export function applyHit(
  state: ClientCounters,
  request: HitRequest,
  now: number,
  windows: ClientCounters = state,
): HitResult {
  const rules = request.windows;
  if (state.banUntil > now) {
    return { outcome: 'banned', now, windows: snapshot(windows, rules, now), banUntil: state.banUntil };
  }
  const full = anyFull(windows, rules, now);
  if (!request.consume) {
    return { outcome: full ? 'limited' : 'allowed', now, windows: snapshot(windows, rules, now), banUntil: null };
  }
  if (full) return reject(state, request, now, windows);
  return { outcome: 'allowed', now, windows: count(windows, rules, now), banUntil: null };
}

/** Whether some window has no room left (a window not open counts as empty). */
function anyFull(state: ClientCounters, rules: readonly WindowRule[], now: number): boolean {
  for (let i = 0; i < rules.length; i++) {
    const { durationMs, limit } = rules[i];
    const counter = live(state.windows.get(durationMs), durationMs, now);
    if ((counter ? counter.count : 0) >= limit) return true;
  }
  return false;
}

/** What each window holds at `now`, one entry per rule. */
function snapshot(state: ClientCounters, rules: readonly WindowRule[], now: number): WindowCount[] {
  const windows = new Array<WindowCount>(rules.length);
  for (let i = 0; i < rules.length; i++) {
    const { durationMs } = rules[i];
    const counter = live(state.windows.get(durationMs), durationMs, now);
    windows[i] = counter ? { count: counter.count, resetAt: counter.start + durationMs } : { count: 0, resetAt: null };
  }
  return windows;
}

/** A refused request: counts as a rejection, and may start a ban. */
function reject(state: ClientCounters, request: HitRequest, now: number, windows: ClientCounters): HitResult {
  const ban = request.ban;
  if (ban) {
    const rejections = live(state.rejections, ban.windowMs, now) ?? { start: now, count: 0 };
    rejections.count += 1;
    state.rejections = rejections;
    if (rejections.count > ban.threshold) {
      state.banUntil = now + ban.durationMs;
      state.rejections = null;
      const counted = snapshot(windows, request.windows, now);
      return { outcome: 'banned', now, windows: counted, banUntil: state.banUntil, banStarted: true };
    }
  }
  return { outcome: 'limited', now, windows: snapshot(windows, request.windows, now), banUntil: null };
}

/** Counts an allowed request in every window; returns what each then holds. */
function count(state: ClientCounters, rules: readonly WindowRule[], now: number): WindowCount[] {
  // Three passes, as windows of the same length share one counter: all looked up before any is replaced,
  // all counted before any is read.
  const counters = new Array<Counter>(rules.length);
  for (let i = 0; i < rules.length; i++) {
    const { durationMs } = rules[i];
    const existing = state.windows.get(durationMs);
    const counter = live(existing, durationMs, now);
    if (counter) counters[i] = counter;
    else if (existing && onlyRuleOfLength(rules, i)) {
      // A counter that has ended is restarted in place: no new object per window, so the garbage of a
      // flood of short-lived clients stays young (see MemoryRateLimitStorage, which recycles records).
      existing.start = now;
      existing.count = 0;
      counters[i] = existing;
    } else counters[i] = { start: now, count: 0 };
  }
  for (let i = 0; i < rules.length; i++) {
    counters[i].count += 1;
    state.windows.set(rules[i].durationMs, counters[i]);
  }
  const windows = new Array<WindowCount>(rules.length);
  for (let i = 0; i < rules.length; i++) {
    windows[i] = { count: counters[i].count, resetAt: counters[i].start + rules[i].durationMs };
  }
  return windows;
}

/** Whether no other rule of `rules` has the length of rule `i` (windows of one length share a counter). */
function onlyRuleOfLength(rules: readonly WindowRule[], i: number): boolean {
  for (let j = 0; j < rules.length; j++) if (j !== i && rules[j].durationMs === rules[i].durationMs) return false;
  return true;
}

/**
 * Makes a client's record as new (`newClientCounters()`), keeping its objects: its
 * window counters end at once rather than being dropped, so they are reused in place.
 */
export function resetClientCounters(state: ClientCounters): void {
  for (const counter of state.windows.values()) {
    counter.start = Number.NEGATIVE_INFINITY;
    counter.count = 0;
  }
  state.rejections = null;
  state.banUntil = 0;
}

/** Lifts a ban and forgets the rejections that led to it; the windows keep their counts. */
export function liftBan(state: ClientCounters): void {
  state.banUntil = 0;
  state.rejections = null;
}

/** Whether nothing in the counters matters any more at `now` (safe to forget). */
export function isIdle(state: ClientCounters, now: number, longestWindowMs: number): boolean {
  if (state.banUntil > now) return false;
  if (state.rejections && state.rejections.start + longestWindowMs > now) return false;
  for (const [durationMs, counter] of state.windows) {
    if (counter.start + durationMs > now) return false;
  }
  return true;
}

/**
 * Takes back one counted request (a conditional GET answered 304 is not charged):
 * each window loses one count if it is still the window that counted it (same end
 * as `resetAts[i]`, the ends the hit reported); a window that has ended since is left alone.
 */
export function refundHit(
  state: ClientCounters,
  rules: readonly WindowRule[],
  resetAts: readonly number[],
  now: number,
): void {
  for (let i = 0; i < rules.length; i++) {
    const { durationMs } = rules[i];
    if (rules.findIndex((rule) => rule.durationMs === durationMs) !== i) continue; // one counter per length
    const counter = live(state.windows.get(durationMs), durationMs, now);
    if (counter && counter.count > 0 && counter.start + durationMs === resetAts[i]) counter.count -= 1;
  }
}
