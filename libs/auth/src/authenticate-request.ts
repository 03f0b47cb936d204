import { context, type Span, trace } from '@opentelemetry/api';
import { addressAllowed } from './address-rules.js';
import { type ApiKey, isExpired } from './api-key.js';
import type { ApiKeyResolver } from './api-key.resolver.js';
import { API_KEY_HEADER, type AuthenticatedRequest } from './auth.decorators.js';

/** Longest secret looked up (real keys have 47 characters): anything longer is refused unread. */
const MAX_API_KEY_LENGTH = 200;

/** What a request's `X-API-Key` header amounts to. */
export type Authentication =
  | { readonly kind: 'key'; readonly key: ApiKey }
  /** No key sent. */
  | { readonly kind: 'none' }
  /** A key that is unknown, revoked, or too long to be one. */
  | { readonly kind: 'invalid' }
  /** A known key past its `expiresAt`, or a previous secret past the end of its roll's overlap. */
  | { readonly kind: 'expired' }
  /** A known key sent from an address outside its `allowedAddresses`. */
  | { readonly kind: 'address_not_allowed' };

const NONE: Authentication = { kind: 'none' };
const INVALID: Authentication = { kind: 'invalid' };
const EXPIRED: Authentication = { kind: 'expired' };
const ADDRESS_NOT_ALLOWED: Authentication = { kind: 'address_not_allowed' };
const RESULT = Symbol('authentication');
const tracer = trace.getTracer('petstore-api');

type Remembered = AuthenticatedRequest & { [RESULT]?: Authentication };

/**
 * The one reading of the API-key header, shared by the rate-limit middleware and
 * the guard: resolved once per request (remembered on it) and the key left on
 * `req.apiKey`. Answers at once, without a promise, when the resolver's caches
 * know the secret (the usual case: a request then takes no async step for it),
 * else with a promise. Fails with `KeyStoreUnavailableError` when the key cannot
 * be checked: a failed lookup is never "no key". Expiry and address rules are
 * judged here, per request against the clock and `req.ip` (not when the key was
 * cached): such a key is not a valid key, and counted like none.
 */
export function authenticateRequest(
  req: AuthenticatedRequest,
  resolver: ApiKeyResolver,
): Authentication | Promise<Authentication> {
  const remembered = (req as Remembered)[RESULT];
  if (remembered) return remembered;
  if (req.apiKey) return { kind: 'key', key: req.apiKey };
  const secret = req.header(API_KEY_HEADER);
  if (typeof secret !== 'string' || secret === '') return remember(req, NONE);
  if (secret.length > MAX_API_KEY_LENGTH) return remember(req, INVALID);
  const span = trace.getActiveSpan()?.isRecording() ? tracer.startSpan('authenticate') : undefined;
  const known = resolver.resolveAtOnce(secret);
  if (known !== undefined) return traced(span, 'cache', remember(req, judge(req, known, resolver)));
  // The store's query under this span (shared lookups: under the first asker's).
  const lookup = span
    ? context.with(trace.setSpan(context.active(), span), () => resolver.resolve(secret))
    : resolver.resolve(secret);
  return lookup.then(
    (key) => traced(span, 'store', remember(req, judge(req, key, resolver))),
    (error: unknown) => {
      span?.setAttribute('petstore.auth.lookup', 'store').end(); // the store failed: the request's status says so
      throw error;
    },
  );
}

/**
 * Ends the span of a traced authentication (`authenticate`): whether the caches
 * knew the secret (`cache`) or the key store was asked (`store`), the outcome, and
 * the key's id — never the key.
 */
function traced(span: Span | undefined, lookup: 'cache' | 'store', result: Authentication): Authentication {
  if (span) {
    span.setAttributes({ 'petstore.auth.lookup': lookup, 'petstore.auth.result': result.kind });
    if (result.kind === 'key') span.setAttribute('petstore.api_key.id', result.key.id);
    span.end();
  }
  return result;
}

function judge(req: AuthenticatedRequest, key: ApiKey | null, resolver: ApiKeyResolver): Authentication {
  if (!key) return INVALID;
  if ((key.expiresAt || key.previousSecret) && isExpired(key, resolver.wallClock())) return EXPIRED;
  if (!addressAllowed(key.allowedAddresses, req.ip)) return ADDRESS_NOT_ALLOWED;
  return { kind: 'key', key };
}

function remember(req: AuthenticatedRequest, authentication: Authentication): Authentication {
  if (authentication.kind === 'key') req.apiKey = authentication.key;
  (req as Remembered)[RESULT] = authentication;
  return authentication;
}
