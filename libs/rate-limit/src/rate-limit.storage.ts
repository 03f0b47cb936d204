import type { ThrottlerStorage } from '@nestjs/throttler';
import { DomainError } from '@petstore/errors';
import type { HitRequest, HitResult } from './fixed-window.js';

/**
 * Where counters live. Extends @nestjs/throttler's `ThrottlerStorage` (so either
 * storage can also back a `ThrottlerGuard`) with the one call the service makes
 * per request: `hit`, every window and the ban rule of a client at once, atomically.
 */
export interface RateLimitStorage extends ThrottlerStorage {
  readonly kind: 'memory' | 'redis';
  /** Counts one request of `client` (an opaque id) if every window has room. */
  hit(client: string, request: HitRequest): Promise<HitResult>;
  /** Lifts a client's ban (and forgets its recent rejections). */
  unban(client: string): Promise<void>;
  /** False while the storage cannot be reached. */
  isHealthy(): boolean;
  /** One round trip to the storage (Redis: PING); rejects when it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORAGE = Symbol('RateLimitStorage');

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
