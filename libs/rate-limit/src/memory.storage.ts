import { Interval } from '@nestjs/schedule';
import { LRUCache } from 'lru-cache';
import {
  applyHit,
  type ClientCounters,
  type HitRequest,
  type HitResult,
  isIdle,
  liftBan,
  newClientCounters,
  refundHit,
  resetClientCounters,
  type WindowRule,
} from './fixed-window.js';
import type { ActiveBan, RateLimitStorage } from './rate-limit.storage.js';

const SWEEP_INTERVAL_MS = 60_000;
/** Evicted records kept for reuse (a flood evicts one per new address). */
const SPARE_RECORDS = 1_024;
/** Default cap on anonymous clients' records (about 500 bytes each: 5 MB at the cap, see docs/performance.md). */
export const DEFAULT_MAX_ANONYMOUS_CLIENTS = 10_000;

export interface MemoryStorageOptions {
  /** How many anonymous clients' counters are kept at most; the least recently used go first. */
  readonly maxAnonymousClients?: number;
  /** Whether a counter id is an anonymous client's (evictable); default: none is. */
  readonly isAnonymous?: (client: string) => boolean;
}

/**
 * In-process counters: one small record per client, O(1) per request whatever the
 * number of hits (unlike the throttler's built-in storage, which keeps a timestamp
 * per hit). Exact within one process only. Idle records are swept once a minute
 * (`@Interval`: runs when the storage is a provider of an application that
 * imports `ScheduleModule.forRoot()`; `RateLimitModule` makes it one).
 *
 * Bounded: anonymous clients (addresses) live in an LRU of at most
 * `maxAnonymousClients` records, so a flood of distinct addresses cannot grow memory
 * between two sweeps; evicting one only forgets counts of an address not seen for the
 * longest. Keys' records and bans are kept apart and never evicted: a flood must not
 * reset a key's windows, nor lift the ban of the very address that floods.
 */
export class MemoryRateLimitStorage implements RateLimitStorage {
  readonly kind = 'memory';
  /** Keys' counters, and anonymous ones while (or since) they were banned: never evicted. */
  private readonly pinned = new Map<string, ClientCounters>();
  private readonly anonymous: LRUCache<string, ClientCounters>;
  /** Clients whose ban started, for `bans()`: pruned as bans end or are lifted. */
  private readonly banned = new Set<string>();
  private readonly isAnonymous: (client: string) => boolean;
  /**
   * Records evicted from the LRU, reused for the next new addresses: a flood then makes
   * no new long-lived objects but the ids, so what it leaves to the garbage collector stays
   * small. (Each evicted record would otherwise live long enough to reach V8's old space,
   * where garbage piles up to hundreds of MB before a full collection.)
   */
  private readonly spare: ClientCounters[] = [];
  private longestMs = 0;

  constructor(
    private readonly now: () => number = Date.now,
    options: MemoryStorageOptions = {},
  ) {
    this.anonymous = new LRUCache({
      max: options.maxAnonymousClients ?? DEFAULT_MAX_ANONYMOUS_CLIENTS,
      dispose: (state, _client, reason) => {
        if (reason === 'evict' && this.spare.length < SPARE_RECORDS) this.spare.push(state);
      },
    });
    this.isAnonymous = options.isAnonymous ?? (() => false);
  }

  hit(client: string, request: HitRequest, windowsOf?: string): Promise<HitResult> {
    return Promise.resolve(this.hitSync(client, request, windowsOf));
  }

  /** The same as `hit`, without a promise (for benchmarks and unit tests). */
  hitSync(client: string, request: HitRequest, windowsOf?: string): HitResult {
    // Shared windows (another client's, e.g. an account's) are counted in that client's record.
    const windows = windowsOf !== undefined && windowsOf !== client ? this.recordOf(windowsOf) : undefined;
    let state = this.pinned.get(client);
    let evictable = false;
    if (!state) {
      state = this.anonymous.get(client);
      evictable = true;
      if (!state) {
        if (this.isAnonymous(client)) {
          state = this.spare.pop() ?? newClientCounters();
          resetClientCounters(state);
          this.anonymous.set(client, state);
        } else {
          state = newClientCounters();
          this.pinned.set(client, state);
          evictable = false;
        }
      }
    }
    for (const rule of request.windows) if (rule.durationMs > this.longestMs) this.longestMs = rule.durationMs;
    if (request.ban && request.ban.durationMs > this.longestMs) this.longestMs = request.ban.durationMs;
    const result = applyHit(state, request, this.now(), windows);
    if (result.banStarted) {
      this.banned.add(client);
      if (evictable) {
        this.anonymous.delete(client);
        this.pinned.set(client, state);
      }
    }
    return result;
  }

  /** The record of a client whose windows others share (never anonymous: kept apart, not evicted). */
  private recordOf(client: string): ClientCounters {
    let state = this.pinned.get(client) ?? this.anonymous.get(client);
    if (!state) {
      state = newClientCounters();
      this.pinned.set(client, state);
    }
    return state;
  }

  refund(client: string, windows: readonly WindowRule[], resetAts: readonly number[]): Promise<void> {
    const state = this.pinned.get(client) ?? this.anonymous.peek(client);
    if (state) refundHit(state, windows, resetAts, this.now());
    return Promise.resolve();
  }

  bans(): Promise<ActiveBan[]> {
    const now = this.now();
    const bans: ActiveBan[] = [];
    for (const client of this.banned) {
      const state = this.pinned.get(client);
      if (state && state.banUntil > now) bans.push({ client, until: state.banUntil });
      else this.banned.delete(client);
    }
    return Promise.resolve(bans);
  }

  async ping(): Promise<void> {
    // Always reachable: it lives in this process.
  }

  unban(client: string): Promise<void> {
    const state = this.pinned.get(client) ?? this.anonymous.peek(client);
    if (state) liftBan(state);
    this.banned.delete(client);
    return Promise.resolve();
  }

  isHealthy(): boolean {
    return true;
  }

  /** Number of clients with live counters (for tests). */
  size(): number {
    return this.pinned.size + this.anonymous.size;
  }

  /** Forgets clients whose windows, rejections and ban have all ended. */
  @Interval('rate-limit-sweep', SWEEP_INTERVAL_MS)
  sweep(): void {
    const now = this.now();
    for (const [client, state] of this.pinned) {
      if (isIdle(state, now, this.longestMs)) this.pinned.delete(client);
    }
    const idle: string[] = [];
    for (const [client, state] of this.anonymous.entries()) if (isIdle(state, now, this.longestMs)) idle.push(client);
    for (const client of idle) this.anonymous.delete(client);
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }

  close(): Promise<void> {
    this.pinned.clear();
    this.anonymous.clear();
    this.banned.clear();
    return Promise.resolve();
  }
}
