import { DomainError } from '@petstore/errors';
import type { HitRequest, HitResult } from './fixed-window.js';

/**
 * Where counters live: one call per request, `hit`, which checks and counts every
 * window and the ban rule of a client at once, atomically. (The guard reaches it
 * through `ThrottlerStorageAdapter`, as @nestjs/throttler's `ThrottlerStorage`.)
 */
export interface RateLimitStorage {
  readonly kind: 'memory' | 'redis';
  /** Counts one request of `client` (an opaque id) if every window has room. */
  hit(client: string, request: HitRequest): Promise<HitResult>;
  /** `hit` without a promise, for a storage that answers in this process (memory): a request then awaits nothing. */
  hitSync?(client: string, request: HitRequest): HitResult;
  /** Lifts a client's ban (and forgets its recent rejections). */
  unban(client: string): Promise<void>;
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
