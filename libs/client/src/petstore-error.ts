import type { RateLimitState } from './rate-limit-state.js';
import type { paths } from './schema.js';

/** The HTTP methods the document uses. */
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

type ErrorStatus = `4${string}` | `5${string}`;

/** The codes a responses object lists for its 4xx/5xx responses (the `code` enum of each). */
type CodesOf<Responses> = {
  [S in keyof Responses]: `${S & (string | number)}` extends ErrorStatus
    ? Responses[S] extends { content: { 'application/json': { code: infer C } } }
      ? C
      : never
    : never;
}[keyof Responses];

/** The error codes one operation can answer with, as its document lists them. */
export type ErrorCodeOf<P extends keyof paths, M extends Method> =
  paths[P] extends Record<M, infer O> ? (O extends { responses: infer R } ? CodesOf<R> & string : never) : never;

/** Every error code of the document. */
export type ErrorCode = { [P in keyof paths]: { [M in Method]: ErrorCodeOf<P, M> }[Method] }[keyof paths];

/** Which operation a request was, by its path template. */
export interface Operation {
  readonly method: Method;
  readonly path: string;
}

/**
 * A failure answered by the service (its Error body), or decided by the client
 * before sending (a spent window beyond the time budget: `requestId` null).
 * `code` is typed by the operation where the document lists its codes; narrow an
 * unknown error with {@link isPetstoreError}.
 */
export class PetstoreError<Code extends string = ErrorCode> extends Error {
  override readonly name = 'PetstoreError';

  constructor(
    readonly code: Code,
    readonly status: number,
    message: string,
    /** `X-Request-Id` of the response: quote it to the operator. */
    readonly requestId: string | null,
    /** What the last response said about the quota. */
    readonly rateLimit: RateLimitState | null,
    /** The operation, when the client knows it. */
    readonly operation: Operation | null = null,
  ) {
    super(message);
  }
}

function isErrorBody(body: unknown): body is { code: string; message: string } {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string';
}

/** The error for a response that is not a success; `body` is its parsed JSON (or whatever it was). */
export function errorFromResponse(
  response: Response,
  body: unknown,
  rateLimit: RateLimitState | null,
  operation: Operation | null,
): PetstoreError {
  const requestId = response.headers.get('X-Request-Id');
  if (isErrorBody(body)) {
    return new PetstoreError(body.code as ErrorCode, response.status, body.message, requestId, rateLimit, operation);
  }
  // Not the service's Error shape (e.g. a proxy in between): keep the status, name no code of the catalogue.
  const message = `HTTP ${response.status} ${response.statusText}`.trim();
  return new PetstoreError('INTERNAL_ERROR', response.status, message, requestId, rateLimit, operation);
}

/**
 * Whether `error` is a {@link PetstoreError}; with an operation, only one of that
 * operation, whose `code` is then typed by the codes the document lists for it:
 *
 * ```ts
 * if (isPetstoreError(e, 'delete', '/pets/{petId}') && e.code === 'PET_HAS_ORDERS') …
 * ```
 */
export function isPetstoreError(error: unknown): error is PetstoreError;
export function isPetstoreError<M extends Method, P extends keyof paths>(
  error: unknown,
  method: M,
  path: P,
): error is PetstoreError<ErrorCodeOf<P, M>>;
export function isPetstoreError(error: unknown, method?: Method, path?: string): boolean {
  if (!(error instanceof PetstoreError)) return false;
  if (method === undefined) return true;
  return error.operation?.method === method && error.operation.path === path;
}
