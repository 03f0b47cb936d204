import { ApiError } from './api-error.js';

/** Seconds a shed client is asked to wait: load sheds quickly, and a short wait spreads the retries. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/**
 * 503 `OVERLOADED`: the service is up but has more work queued than it can serve
 * within its wait bound, so the request was shed (at once, or after the bounded
 * wait) rather than left to queue. Not an outage: a retry after `Retry-After` may
 * well succeed.
 */
export class OverloadedError extends ApiError {
  constructor(reason: string) {
    super(503, 'OVERLOADED', `The service is overloaded (${reason}); retry after ${OVERLOADED_RETRY_AFTER_SECONDS} s`, {
      'Retry-After': String(OVERLOADED_RETRY_AFTER_SECONDS),
    });
    this.name = 'OverloadedError';
  }
}

/**
 * pg-pool's error when a request waited its `connectionTimeoutMillis` for a busy
 * pool (not when opening a connection): it carries no code, so it is known by its
 * message, made by the real pg-pool in test/driver-errors.e2e-spec.ts ("timeout
 * exceeded when trying to connect") and through the app in
 * test/overload.slow-spec.ts; listed in src/database/README.md.
 */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

/** Whether `error` is pg-pool's wait for a free connection running out: the database is up, the pool is busy. */
export function isPoolWaitTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { message?: unknown }).message === POOL_WAIT_TIMEOUT;
}
