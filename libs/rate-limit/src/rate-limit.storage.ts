import { DomainError } from '@petstore/errors';
import type { HitRequest, HitResult, WindowRule } from './fixed-window.js';

/** A ban in force: the client's counter id and when it ends (ms since the epoch). */
export interface ActiveBan {
  readonly client: string;
  readonly until: number;
}

/**
 * Where counters live: one call per request, `hit`, which checks and counts every
 * window and the ban rule of a client at once, atomically. (The guard reaches it
 * through `ThrottlerStorageAdapter`, as @nestjs/throttler's `ThrottlerStorage`.)
 */
export interface RateLimitStorage {
  readonly kind: 'memory' | 'redis';
  /**
   * Counts one request of `client` (an opaque id) if every window has room. `windowsOf`:
   * the client whose windows count it, when they are shared (e.g. every key of an
   * account counts in the account's); the ban and its rejections stay `client`'s own.
   */
  hit(client: string, request: HitRequest, windowsOf?: string): Promise<HitResult>;
  /** `hit` without a promise, for a storage that answers in this process (memory): a request then awaits nothing. */
  hitSync?(client: string, request: HitRequest, windowsOf?: string): HitResult;
  /** Lifts a client's ban (and forgets its recent rejections). */
  unban(client: string): Promise<void>;
  /**
   * Takes back one request counted by `hit` in `windows` of `client` (the windows' owner: the
   * `windowsOf` of the hit when shared; a 304 is not charged), in each
   * window that is still the one that counted it: `resetAts` are the ends `hit` reported.
   */
  refund(client: string, windows: readonly WindowRule[], resetAts: readonly number[]): Promise<void>;
  /** The bans in force now, from an index (never a scan of every counter). */
  bans(): Promise<ActiveBan[]>;
  /** False while the storage cannot be reached. */
  isHealthy(): boolean;
  /** One round trip to the storage (Redis: PING); rejects when it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The storage could not answer (Redis down, timed out): the limiter fails open or
 * closed. A domain error of kind `unavailable`, so wherever it escapes (e.g. an
 * unban while Redis is down) the client gets 503 without the internal detail.
 */
export class RateLimitStorageUnavailableError extends DomainError {
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly kind = 'unavailable';

  constructor(
    /** For the log only. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super('A required dependency is unavailable; retry shortly');
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
