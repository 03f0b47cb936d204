import { type BackoffOptions, delayAfter429, delayAfterFailure } from './backoff.js';
import { Pacer } from './pacer.js';
import { errorFromResponse, type Operation, PetstoreError } from './petstore-error.js';
import { type RateLimitState, readRateLimit } from './rate-limit-state.js';

/** Waits `ms` on the client's clock; rejects with the signal's reason when it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions extends BackoffOptions {
  /** Attempts per request, the first included (default 5). */
  readonly maxAttempts?: number;
  /** Time a request may take from its first attempt, waits included, ms (default 120,000). */
  readonly maxElapsedMs?: number;
}

export interface RetryingFetchOptions {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly retry: RetryOptions;
  /** Wait for a spent window to reset rather than send into a 429. */
  readonly pacing: boolean;
  readonly now: () => number;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly idempotencyKey: () => string;
  /** The operation of a request, when known (for errors). */
  readonly operationOf: (request: Request) => Operation | null;
  /** Told of every response, with what it said about the quota and the request as it was given. */
  readonly onResponse?: (response: Response, state: RateLimitState, request: Request) => void;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_MAX_ELAPSED_MS = 120_000;

/** Methods whose repetition has the effect of one request (RFC 9110). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** The service answers a repeated order with the first answer when it carries the same Idempotency-Key. */
function needsIdempotencyKey(request: Request): boolean {
  return request.method === 'POST' && new URL(request.url).pathname.endsWith('/store/orders');
}

/** Frees the connection of a response that will not be read. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

async function bodyOf(response: Response): Promise<unknown> {
  try {
    return await response.clone().json();
  } catch {
    return null;
  }
}

/**
 * A `fetch` for openapi-fetch that behaves as the service asks its clients to
 * (API.md section 5, docs/client.md):
 * - paces: when a window is spent, waits for its reset instead of sending into a 429;
 * - 429: waits `Retry-After` (never less), with exponential full-jitter backoff on top
 *   of it when 429s repeat; `API_KEY_BANNED` stops at once with a {@link PetstoreError};
 * - 503 and network errors: retries idempotent requests, and orders, which carry an
 *   `Idempotency-Key` made once per order and sent again with each retry;
 * - within `maxAttempts` and `maxElapsedMs`; the request's `AbortSignal` cancels,
 *   also while waiting. When the budget is spent, the last response is the answer.
 */
export function retryingFetch(options: RetryingFetchOptions): (request: Request) => Promise<Response> {
  const pacer = new Pacer(options.now);
  const maxAttempts = options.retry.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const maxElapsedMs = options.retry.maxElapsedMs ?? DEFAULT_MAX_ELAPSED_MS;

  return async function send(original: Request): Promise<Response> {
    const operation = options.operationOf(original);
    let request = original;
    if (needsIdempotencyKey(request) && !request.headers.has('Idempotency-Key')) {
      const headers = new Headers(request.headers);
      headers.set('Idempotency-Key', options.idempotencyKey());
      request = new Request(request, { headers });
    }
    const retriesFailures = IDEMPOTENT.has(request.method) || request.headers.has('Idempotency-Key');
    const signal = request.signal;
    const started = options.now();
    const withinBudget = (wait: number): boolean => options.now() - started + wait <= maxElapsedMs;
    const wait = async (ms: number): Promise<void> => {
      signal.throwIfAborted();
      if (ms > 0) await options.sleep(ms, signal);
      signal.throwIfAborted();
    };
    let lastState: RateLimitState | null = null;
    let refusals = 0;

    for (let attempt = 1; ; attempt++) {
      if (options.pacing) {
        for (let delay = pacer.delay(); delay > 0; delay = pacer.delay()) {
          if (!withinBudget(delay)) {
            throw new PetstoreError(
              'RATE_LIMIT_EXCEEDED',
              429,
              `Not sent: the rate-limit window is spent for ${Math.ceil(delay / 1000)} s more, beyond the client's time budget`,
              null,
              lastState,
              operation,
            );
          }
          await wait(delay);
        }
      }
      signal.throwIfAborted();
      pacer.reserve();
      let response: Response;
      try {
        response = await options.fetch(request.clone());
      } catch (error) {
        pacer.settle(null);
        if (signal.aborted || !retriesFailures || attempt >= maxAttempts) throw error;
        const delay = delayAfterFailure(null, attempt, options.random, options.retry);
        if (!withinBudget(delay)) throw error;
        await wait(delay);
        continue;
      }
      const state = readRateLimit(response.headers, options.now());
      pacer.settle(state);
      lastState = state;
      options.onResponse?.(response, state, original);

      if (response.status === 429) {
        const body = await bodyOf(response);
        const refusal = errorFromResponse(response, body, state, operation);
        if (refusal.code === 'API_KEY_BANNED') throw refusal;
        refusals++;
        const delay = delayAfter429(state.retryAfterSeconds, refusals, options.random, options.retry);
        if (attempt >= maxAttempts || !withinBudget(delay)) return response;
        await discard(response);
        await wait(delay);
        continue;
      }
      refusals = 0;
      if (response.status === 503 && retriesFailures) {
        const delay = delayAfterFailure(state.retryAfterSeconds, attempt, options.random, options.retry);
        if (attempt >= maxAttempts || !withinBudget(delay)) return response;
        await discard(response);
        await wait(delay);
        continue;
      }
      return response;
    }
  };
}
