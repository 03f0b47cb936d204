import type { ApiKey } from './api-key.js';
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
  | { readonly kind: 'invalid' };

const NONE: Authentication = { kind: 'none' };
const INVALID: Authentication = { kind: 'invalid' };
const RESULT = Symbol('authentication');

type Remembered = AuthenticatedRequest & { [RESULT]?: Authentication };

/**
 * The one reading of the API-key header, shared by the rate-limit middleware and
 * the guard: resolved once per request (remembered on it) and the key left on
 * `req.apiKey`. Answers at once, without a promise, when the resolver's caches
 * know the secret (the usual case: a request then takes no async step for it),
 * else with a promise. Fails with `KeyStoreUnavailableError` when the key cannot
 * be checked: a failed lookup is never "no key".
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
  const known = resolver.resolveAtOnce(secret);
  if (known !== undefined) return remember(req, ofKey(known));
  return resolver.resolve(secret).then((key) => remember(req, ofKey(key)));
}

const ofKey = (key: ApiKey | null): Authentication => (key ? { kind: 'key', key } : INVALID);

function remember(req: AuthenticatedRequest, authentication: Authentication): Authentication {
  if (authentication.kind === 'key') req.apiKey = authentication.key;
  (req as Remembered)[RESULT] = authentication;
  return authentication;
}
