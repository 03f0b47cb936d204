import { Logger } from '@nestjs/common';
import { DAY_MS, type HitRequest, MINUTE_MS } from './fixed-window.js';
import { decide, type RateLimitDecision } from './rate-limit-decision.js';
import type { RateLimitClient, RateLimitQuota } from './rate-limit.options.js';
import { type ActiveBan, RateLimitStorageUnavailableError, type RateLimitStorage } from './rate-limit.storage.js';

export interface RateLimiterSettings {
  /** Serve requests when the shared storage is down (counting in this process meanwhile). */
  readonly failOpen: boolean;
  /** A client is banned after more than this × its per-minute limit of rejections within a minute. */
  readonly banThresholdMultiplier: number;
  readonly banDurationSeconds: number;
}

const WARNING_INTERVAL_MS = 30_000;

/**
 * Applies the plan quotas to a client: which windows, which storage call, and what
 * happens when the storage is unreachable (fail open: count in this process and
 * warn; fail closed: `RateLimitStorageUnavailableError`, answered 503).
 */
export class RateLimiter {
  private readonly logger = new Logger('RateLimit');
  private lastWarningAt = Number.NEGATIVE_INFINITY;
  /** The storage requests of each quota (plan table entries and keys' own limits are values: a change makes new ones). */
  private readonly requests = new WeakMap<RateLimitQuota, { counting: HitRequest; reporting: HitRequest }>();

  constructor(
    private readonly quotaOf: (plan: string) => RateLimitQuota,
    private readonly storage: RateLimitStorage,
    private readonly settings: RateLimiterSettings,
    /** Counts while `storage` is unreachable (fail open); null when `storage` cannot fail. */
    private readonly fallback: RateLimitStorage | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the counters are in this process (memory), not in a shared storage (Redis). */
  get countsInProcess(): boolean {
    return this.storage.hitSync !== undefined;
  }

  /** The quotas that apply: the client's own, else its plan's (read now, so a reload applies at once). */
  limitsFor(client: RateLimitClient): RateLimitQuota {
    return client.limits ?? this.quotaOf(client.plan);
  }

  /** The storage request for a client: a minute and a day window, and the ban rule. */
  requestFor(client: RateLimitClient, consume: boolean): HitRequest {
    const limits = this.limitsFor(client);
    let requests = this.requests.get(limits);
    if (!requests) {
      requests = { counting: this.newRequest(limits, true), reporting: this.newRequest(limits, false) };
      this.requests.set(limits, requests);
    }
    return consume ? requests.counting : requests.reporting;
  }

  /**
   * Counts one request against the client's plan (or, with `consume` false, only
   * reports the state). Throws `RateLimitStorageUnavailableError` only when failing closed.
   */
  check(client: RateLimitClient, consume = true): Promise<RateLimitDecision> {
    return this.hit(client.id, this.requestFor(client, consume), client.windowsId);
  }

  /** `check` without a promise when the storage answers in this process (memory); else undefined. */
  checkAtOnce(client: RateLimitClient, consume = true): RateLimitDecision | undefined {
    if (!this.storage.hitSync) return undefined;
    const request = this.requestFor(client, consume);
    return decide(request, this.storage.hitSync(client.id, request, client.windowsId));
  }

  /** Lifts a client's ban everywhere it may be recorded. */
  async unban(clientId: string): Promise<void> {
    await this.fallback?.unban(clientId);
    await this.storage.unban(clientId);
  }

  /**
   * Takes back the request `decision` counted for `client` (a conditional GET answered
   * 304 is not charged): the plan's windows, where the request was counted. Only the
   * plan's windows are refunded (a route's own `@Throttle` windows keep their count).
   */
  async refund(client: RateLimitClient, decision: RateLimitDecision): Promise<void> {
    const { windows } = this.requestFor(client, true);
    const resetAts = windows.map((_rule, i) => decision.windows[i]?.resetAt ?? -1);
    const owner = client.windowsId ?? client.id;
    try {
      await this.storage.refund(owner, windows, resetAts);
    } catch (error) {
      if (!(error instanceof RateLimitStorageUnavailableError) || !this.fallback) throw error;
      // Counted in this process meanwhile (failing open): take it back there.
      await this.fallback.refund(owner, windows, resetAts);
    }
  }

  /**
   * The bans in force now, wherever recorded: the storage's index, and (failing open)
   * those this process started while the shared storage was unreachable. Route blocks
   * (`@Throttle` with `blockDuration`) are bans of their `throttler:…` counters.
   */
  async bans(): Promise<ActiveBan[]> {
    const found = new Map<string, ActiveBan>();
    for (const ban of (await this.fallback?.bans()) ?? []) found.set(ban.client, ban);
    for (const ban of await this.storage.bans()) found.set(ban.client, ban);
    return [...found.values()];
  }

  /**
   * Counts one request of any counter (e.g. a route's limit) on the same storages, failing open or
   * closed alike; `windowsOf` as for the storage's `hit` (shared windows).
   */
  async hit(id: string, request: HitRequest, windowsOf?: string): Promise<RateLimitDecision> {
    try {
      return decide(request, await this.storage.hit(id, request, windowsOf));
    } catch (error) {
      if (!(error instanceof RateLimitStorageUnavailableError) || !this.fallback) throw error;
      this.warn(error);
      if (!this.settings.failOpen) throw error;
      return decide(request, await this.fallback.hit(id, request, windowsOf));
    }
  }

  private newRequest(limits: RateLimitQuota, consume: boolean): HitRequest {
    return {
      windows: [
        { name: 'minute', limit: limits.perMinute, durationMs: MINUTE_MS },
        { name: 'day', limit: limits.perDay, durationMs: DAY_MS },
      ],
      ban: {
        threshold: this.settings.banThresholdMultiplier * limits.perMinute,
        durationMs: this.settings.banDurationSeconds * 1000,
        windowMs: MINUTE_MS,
      },
      consume,
    };
  }

  private warn(error: RateLimitStorageUnavailableError): void {
    const now = this.now();
    if (now - this.lastWarningAt < WARNING_INTERVAL_MS) return;
    this.lastWarningAt = now;
    const consequence = this.settings.failOpen
      ? 'serving requests, counting in this process only (failing open)'
      : 'answering 503 (failing closed)';
    this.logger.warn(`Rate-limit storage unavailable (${error.detail}): ${consequence}`);
  }
}
