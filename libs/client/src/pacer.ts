import type { RateLimitState } from './rate-limit-state.js';

interface Window {
  remaining: number;
  resetAt: number;
  readonly limit: number | null;
  readonly durationMs: number | null;
}

/**
 * A client's view of its quota, so that it waits for a spent window to reset
 * instead of spending a request on a 429. Requests in flight are counted against
 * the windows as they leave, and the service's answer corrects the count when it
 * arrives (less what is still in flight, which it may not have counted yet).
 */
export class Pacer {
  private readonly windows = new Map<string, Window>();
  private inFlight = 0;

  constructor(private readonly now: () => number) {}

  /** Milliseconds until every window known to be spent has reset; 0 when a request may leave now. */
  delay(): number {
    const now = this.now();
    let wait = 0;
    for (const [name, window] of this.windows) {
      if (now >= window.resetAt) {
        if (window.limit === null || window.durationMs === null) {
          this.windows.delete(name);
          continue;
        }
        // A fresh window: it opens with this request, so it resets no earlier than a full length from now.
        window.remaining = window.limit;
        window.resetAt = now + window.durationMs;
      }
      if (window.remaining <= 0) wait = Math.max(wait, window.resetAt - now);
    }
    return wait;
  }

  /** A request leaves: it takes one from every window. */
  reserve(): void {
    this.inFlight++;
    for (const window of this.windows.values()) window.remaining--;
  }

  /** Its answer arrived (`state` null when there was none, e.g. a network error). */
  settle(state: RateLimitState | null): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (!state || state.windows.length === 0) return;
    this.windows.clear();
    for (const { name, remaining, resetAt, limit, durationMs } of state.windows) {
      this.windows.set(name, { remaining: remaining - this.inFlight, resetAt, limit, durationMs });
    }
  }
}
