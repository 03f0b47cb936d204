import { Logger } from '@nestjs/common';
import type { ApiKey } from '@petstore/auth';
import { DAY_MS, type HitRequest, MINUTE_MS } from './fixed-window.js';
import { isPlanName, type PlanLimits } from './plan.js';
import type { PlanTableService } from './plan-table.js';
import { decide, type RateLimitDecision } from './rate-limit-decision.js';
import { RateLimitStorageUnavailableError, type RateLimitStorage } from './rate-limit.storage.js';

/** Whom a request is counted against. */
export type RateLimitClient =
  { readonly kind: 'key'; readonly key: ApiKey } | { readonly kind: 'address'; readonly address: string };

export interface RateLimiterSettings {
  /** Serve requests when the shared storage is down (counting in this process meanwhile). */
  readonly failOpen: boolean;
  /** A client is banned after more than this × its per-minute limit of rejections within a minute. */
  readonly banThresholdMultiplier: number;
  readonly banDurationSeconds: number;
}

const WARNING_INTERVAL_MS = 30_000;

/**
 * The counter id of a client. A key is named by its id and creation time, so a
 * key id reused after a database reset (tests) never inherits old counters.
 */
export function clientId(client: RateLimitClient): string {
  return client.kind === 'key'
    ? `k${client.key.id}.${client.key.createdAt.getTime().toString(36)}`
    : `ip:${client.address}`;
}

/**
 * Applies the plan table to a client: which quotas, which storage call, and what
 * happens when the storage is unreachable (fail open: count in this process and
 * warn; fail closed: `RateLimitStorageUnavailableError`, answered 503).
 */
export class RateLimiter {
  private readonly logger = new Logger('RateLimit');
  private lastWarningAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly plans: PlanTableService,
    private readonly storage: RateLimitStorage,
    private readonly settings: RateLimiterSettings,
    /** Counts while `storage` is unreachable (fail open); null when `storage` cannot fail. */
    private readonly fallback: RateLimitStorage | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** The quotas that apply: the key's plan, an enterprise key's own limits, free for an address. */
  limitsFor(client: RateLimitClient): PlanLimits {
    const free = this.plans.limitsOf('free') ?? { perMinute: 60, perDay: 1_000 };
    if (client.kind === 'address') return free;
    const { key } = client;
    if (key.plan === 'enterprise') return key.limits ?? free;
    return (isPlanName(key.plan) ? this.plans.limitsOf(key.plan) : null) ?? free;
  }

  /** The storage request for a client: a minute and a day window, and the ban rule. */
  requestFor(client: RateLimitClient, consume: boolean): HitRequest {
    const limits = this.limitsFor(client);
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

  /**
   * Counts one request (or, with `consume` false, only reports the state).
   * Throws `RateLimitStorageUnavailableError` only when failing closed.
   */
  async check(client: RateLimitClient, consume = true): Promise<RateLimitDecision> {
    const request = this.requestFor(client, consume);
    const id = clientId(client);
    try {
      return decide(request, await this.storage.hit(id, request));
    } catch (error) {
      if (!(error instanceof RateLimitStorageUnavailableError) || !this.fallback) throw error;
      this.warn(error);
      if (!this.settings.failOpen) throw error;
      return decide(request, await this.fallback.hit(id, request));
    }
  }

  /** Lifts a key's ban everywhere it may be recorded. */
  async unban(key: ApiKey): Promise<void> {
    const id = clientId({ kind: 'key', key });
    await this.fallback?.unban(id);
    await this.storage.unban(id);
  }

  private warn(error: RateLimitStorageUnavailableError): void {
    const now = this.now();
    if (now - this.lastWarningAt < WARNING_INTERVAL_MS) return;
    this.lastWarningAt = now;
    const consequence = this.settings.failOpen
      ? 'serving requests, counting in this process only (RATE_LIMIT_FAIL_OPEN=true)'
      : 'answering 503 (RATE_LIMIT_FAIL_OPEN=false)';
    this.logger.warn(`Rate-limit storage unavailable (${error.detail}): ${consequence}`);
  }
}
