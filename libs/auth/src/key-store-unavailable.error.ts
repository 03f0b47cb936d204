import { ApiError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@petstore/errors';

/**
 * The key store could not say whether a key is valid (and no usable cached entry
 * exists): answered 503 `SERVICE_UNAVAILABLE` with a short `Retry-After`, never
 * treated as "no key", which would charge the request to its address as anonymous
 * traffic and could refuse a paying key with 429.
 */
export class KeyStoreUnavailableError extends ApiError {
  constructor(cause: unknown) {
    super(503, 'SERVICE_UNAVAILABLE', 'API keys cannot be checked right now; retry shortly', {
      'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
    this.name = 'KeyStoreUnavailableError';
    this.cause = cause;
  }
}
