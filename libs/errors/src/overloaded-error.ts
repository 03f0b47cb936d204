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
