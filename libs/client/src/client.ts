import createClient, { type Client } from 'openapi-fetch';
import { EtagCache } from './etag-cache.js';
import { errorFromResponse, type Method, type Operation } from './petstore-error.js';
import { nextLink, queryOf } from './paging.js';
import { type RateLimitState, readRateLimit } from './rate-limit-state.js';
import { retryingFetch, type RetryOptions, type Sleep } from './retrying-fetch.js';
import type { paths } from './schema.js';

export interface PetstoreClientOptions {
  /** Where the service is, e.g. `https://petstore.example.com`. */
  readonly baseUrl: string;
  /** Sent as `X-API-Key`. */
  readonly apiKey?: string;
  /** Budgets and backoff steps. */
  readonly retry?: RetryOptions;
  /** Wait for a spent rate-limit window to reset instead of sending into a 429 (default true). */
  readonly pacing?: boolean;
  /** The transport (default `globalThis.fetch`). */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** The clock, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** How to wait (default: a timer, cancelled by the request's signal). */
  readonly sleep?: Sleep;
  /** Random numbers in [0, 1) for the jitter (default `Math.random`). */
  readonly random?: () => number;
  /** Makes an order's `Idempotency-Key` (default `crypto.randomUUID`). */
  readonly idempotencyKey?: () => string;
  /**
   * Revalidate GETs with `If-None-Match` and answer a 304 (not charged to the key's quota)
   * from the body kept for the URL, as a 200 (default false). `true` keeps the last 256 URLs;
   * a number sets how many.
   */
  readonly conditionalGets?: boolean | number;
}

/** Paths whose GET is a paged list (it takes a `cursor`). */
export type PagedPath = {
  [P in keyof paths]: paths[P] extends { get: { parameters: { query?: infer Q } } }
    ? 'cursor' extends keyof NonNullable<Q>
      ? P
      : never
    : never;
}[keyof paths];

/** The query of a paged list, but the cursor, which the links carry. */
export type PageQuery<P extends PagedPath> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? Omit<NonNullable<Q>, 'cursor'>
  : never;

/** One item of a paged list. */
export type PageItem<P extends PagedPath> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': Array<infer T> } } } };
}
  ? T
  : never;

/** The data of a successful openapi-fetch result (`undefined` for 204). */
export type DataOf<R extends { data?: unknown }> = [Exclude<R['data'], undefined>] extends [never]
  ? undefined
  : Exclude<R['data'], undefined>;

export interface PetstoreExtras {
  /**
   * The data of a result, or a thrown {@link PetstoreError} (check it with
   * `isPetstoreError(e, method, path)` for the operation's typed `code`).
   */
  unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(pending: Promise<R>): Promise<DataOf<R>>;
  /** Every item of a paged list, page after page, following `Link: rel="next"`. */
  paginate<P extends PagedPath>(
    path: P,
    init?: { readonly query?: PageQuery<P>; readonly signal?: AbortSignal },
  ): AsyncGenerator<PageItem<P>, void, undefined>;
  /** What the last response said about this client's quota (null before the first). */
  rateLimit(): RateLimitState | null;
}

/** openapi-fetch's client (`GET`, `POST`, … answering `{data, error, response}`) with the extras. */
export type PetstoreClient = Client<paths> & PetstoreExtras;

/** A timer that an abort cuts short; then rejects with the signal's reason, as `fetch` does (`throwIfAborted`). */
const defaultSleep: Sleep = async (ms, signal) => {
  signal?.throwIfAborted();
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer: ReturnType<typeof setTimeout> = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
  signal?.throwIfAborted();
};

/**
 * A typed client of the Petstore API. Every request goes through one pacing and
 * retry policy (see `retryingFetch`), kept per client: use one client per API key.
 */
export function createPetstoreClient(options: PetstoreClientOptions): PetstoreClient {
  const now = options.now ?? Date.now;
  const operations = new WeakMap<Request | Response, Operation>();
  let last: RateLimitState | null = null;

  const transport = retryingFetch({
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    retry: options.retry ?? {},
    pacing: options.pacing ?? true,
    now,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    idempotencyKey: options.idempotencyKey ?? (() => globalThis.crypto.randomUUID()),
    operationOf: (request) => operations.get(request) ?? null,
    onResponse: (response, state, request) => {
      last = state;
      const operation = operations.get(request);
      if (operation) operations.set(response, operation);
    },
  });

  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.apiKey ? { 'X-API-Key': options.apiKey } : undefined,
    fetch: (request) => transport(request),
  });
  const etags = options.conditionalGets
    ? new EtagCache(options.conditionalGets === true ? undefined : options.conditionalGets)
    : null;
  api.use({
    onRequest({ request, schemaPath }) {
      const sent = etags?.onRequest(request) ?? request;
      operations.set(sent, { method: sent.method.toLowerCase() as Method, path: schemaPath });
      return sent;
    },
    async onResponse({ request, response }) {
      const answered = await etags?.onResponse(request, response);
      if (answered) {
        const operation = operations.get(response);
        if (operation) operations.set(answered, operation);
      }
      return answered;
    },
  });

  const unwrap: PetstoreExtras['unwrap'] = async (pending) => {
    const result = await pending;
    if (result.response.ok) return result.data as DataOf<typeof result>;
    const state = readRateLimit(result.response.headers, now());
    throw errorFromResponse(result.response, result.error, state, operations.get(result.response) ?? null);
  };

  async function* paginate<P extends PagedPath>(
    path: P,
    init: { readonly query?: PageQuery<P>; readonly signal?: AbortSignal } = {},
  ): AsyncGenerator<PageItem<P>, void, undefined> {
    let query: object | undefined = init.query;
    for (;;) {
      // The path is one of the paged lists, whose query the caller typed; openapi-fetch cannot see that here.
      const result = await api.GET(path as never, { params: { query }, signal: init.signal } as never);
      const items = (await unwrap(Promise.resolve(result))) as unknown as Array<PageItem<P>>;
      yield* items;
      const next = nextLink((result as { response: Response }).response.headers.get('Link'));
      if (!next) return;
      query = queryOf(next);
    }
  }

  return Object.assign(api, { unwrap, paginate, rateLimit: () => last });
}
