/** @petstore/client: a typed client of the Petstore API that paces, retries and pages as the service asks. */
export {
  createPetstoreClient,
  type DataOf,
  type PageItem,
  type PageQuery,
  type PagedPath,
  type PetstoreClient,
  type PetstoreClientOptions,
  type PetstoreExtras,
} from './client.js';
export {
  type ErrorCode,
  type ErrorCodeOf,
  isPetstoreError,
  type Method,
  type Operation,
  PetstoreError,
} from './petstore-error.js';
export type { RateLimitState, RateLimitWindow } from './rate-limit-state.js';
export type { RetryOptions, Sleep } from './retrying-fetch.js';
export type { BackoffOptions } from './backoff.js';
export type { components, operations, paths } from './schema.js';
