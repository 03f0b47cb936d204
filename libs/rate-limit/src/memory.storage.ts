import { Interval } from '@nestjs/schedule';
import {
  applyHit,
  type ClientCounters,
  type HitRequest,
  type HitResult,
  isIdle,
  liftBan,
  newClientCounters,
} from './fixed-window.js';
import type { RateLimitStorage } from './rate-limit.storage.js';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * In-process counters: one small record per client, O(1) per request whatever the
 * number of hits (unlike the throttler's built-in storage, which keeps a timestamp
 * per hit). Exact within one process only. Idle records are swept once a minute
 * (`@Interval`: runs when the storage is a provider of an application that
 * imports `ScheduleModule.forRoot()`; `RateLimitModule` makes it one).
 */
export class MemoryRateLimitStorage implements RateLimitStorage {
  readonly kind = 'memory';
  private readonly clients = new Map<string, ClientCounters>();
  private longestMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  hit(client: string, request: HitRequest): Promise<HitResult> {
    return Promise.resolve(this.hitSync(client, request));
  }

  /** The same as `hit`, without a promise (for benchmarks and unit tests). */
  hitSync(client: string, request: HitRequest): HitResult {
    let state = this.clients.get(client);
    if (!state) {
      state = newClientCounters();
      this.clients.set(client, state);
    }
    for (const rule of request.windows) if (rule.durationMs > this.longestMs) this.longestMs = rule.durationMs;
    if (request.ban && request.ban.durationMs > this.longestMs) this.longestMs = request.ban.durationMs;
    return applyHit(state, request, this.now());
  }

  async ping(): Promise<void> {
    // Always reachable: it lives in this process.
  }

  unban(client: string): Promise<void> {
    const state = this.clients.get(client);
    if (state) liftBan(state);
    return Promise.resolve();
  }

  isHealthy(): boolean {
    return true;
  }

  /** Number of clients with live counters (for tests). */
  size(): number {
    return this.clients.size;
  }

  /** Forgets clients whose windows, rejections and ban have all ended. */
  @Interval('rate-limit-sweep', SWEEP_INTERVAL_MS)
  sweep(): void {
    const now = this.now();
    for (const [client, state] of this.clients) {
      if (isIdle(state, now, this.longestMs)) this.clients.delete(client);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  close(): Promise<void> {
    this.clients.clear();
    return Promise.resolve();
  }
}
