import {
  type ApiKey,
  type ApiKeyAccount,
  type ApiKeyResolver,
  type AuthenticatedRequest,
  type Authentication,
  authenticateRequest,
  KeyStoreUnavailableError,
} from '@petstore/auth';
import { ApiError } from '@petstore/errors';
import type { RateLimitClient, RateLimitQuota, RateLimitRefusal } from '@petstore/rate-limit';
import type { Request } from 'express';
import { clientAddress } from './client-ip.js';
import { isPlanName, type PlanName } from './plan.js';
import type { PlanTableService } from './plan-table.js';

/** A client as this service counts it (API.md section 5): an API key, or an address without one. */
export interface ApiClient extends RateLimitClient {
  /** Null for requests without a valid key, counted per address. */
  readonly key: ApiKey | null;
}

/** Requests without a valid key are counted per address under this plan. */
const ADDRESS_PLAN: PlanName = 'free';

/**
 * The counter id of a key: its id and creation time, so a key id reused after a
 * database reset (tests) never inherits old counters.
 */
export function keyCounterId(key: ApiKey): string {
  return `k${key.id}.${key.createdAt.getTime().toString(36)}`;
}

/** The counter id of an account's windows, shared by its keys: its id and creation time, as for a key. */
export function accountCounterId(account: ApiKeyAccount): string {
  return `a${account.id}.${account.createdAt.getTime().toString(36)}`;
}

/** Keys are immutable values (a change makes a new one): each has one client, made on first use. */
const clientsOfKeys = new WeakMap<ApiKey, ApiClient>();

export function keyClient(key: ApiKey): ApiClient {
  let client = clientsOfKeys.get(key);
  if (!client) {
    // Only enterprise keys (or accounts) carry quotas of their own; the others follow their plan. A key in an
    // account counts in the account's windows (its plan and limits are the account's); a ban stays the key's.
    const limits = key.plan === 'enterprise' ? key.limits : null;
    client = { id: keyCounterId(key), plan: key.plan, limits, key };
    if (key.account) client = { ...client, windowsId: accountCounterId(key.account) };
    clientsOfKeys.set(key, client);
  }
  return client;
}

/** Prefix of the counter ids of addresses (requests without a valid key). */
const ADDRESS_PREFIX = 'ip:';

/** The counter id of an address: IPv6 addresses as their /64. */
export function addressCounterId(ip: string | undefined): string {
  return `${ADDRESS_PREFIX}${clientAddress(ip)}`;
}

/** Whether a counter id is an address's (anonymous: its in-process counters may be evicted). */
export function isAddressCounterId(id: string): boolean {
  return id.startsWith(ADDRESS_PREFIX);
}

/** `ip` is Express's `req.ip` (or a socket's address): IPv6 clients are counted per /64. */
export function addressClient(ip: string | undefined): ApiClient {
  return { id: addressCounterId(ip), plan: ADDRESS_PLAN, key: null, anonymous: true };
}

/**
 * Who a request is counted against: its API key through the one header-auth helper
 * (which leaves the key on the request for the auth guard), else its address. A
 * key store that cannot answer is never "no key": the address is reported on
 * and the request answered with `KeyStoreUnavailableError` (503), charging no one.
 * At once when the key's answer is cached, else a promise.
 */
export function identifyByApiKey(resolver: ApiKeyResolver): (req: Request) => ApiClient | Promise<ApiClient> {
  const clientOf = (req: Request, authentication: Authentication): ApiClient =>
    authentication.kind === 'key' ? keyClient(authentication.key) : addressClient(req.ip);
  return (req) => {
    const authentication = authenticateRequest(req as AuthenticatedRequest, resolver);
    if (!(authentication instanceof Promise)) return clientOf(req, authentication);
    return authentication.then(
      (result) => clientOf(req, result),
      (error: unknown) => {
        if (!(error instanceof KeyStoreUnavailableError)) throw error;
        return { ...addressClient(req.ip), unverified: error };
      },
    );
  };
}

/** A plan's quotas from the table in force; an unknown plan, or enterprise without limits, fails safe to free. */
export function quotaOfPlan(plans: PlanTableService): (plan: string) => RateLimitQuota {
  return (plan) =>
    (isPlanName(plan) ? plans.limitsOf(plan) : null) ??
    plans.limitsOf(ADDRESS_PLAN) ?? { perMinute: 60, perDay: 1_000 };
}

/** The Error body of a refusal: 429 `RATE_LIMIT_EXCEEDED` / `API_KEY_BANNED`, or 503 while failing closed. */
export function refusalError(refusal: RateLimitRefusal<ApiClient>): ApiError {
  const { client, retryAfterSeconds } = refusal;
  const retry = { 'Retry-After': String(retryAfterSeconds) };
  if (refusal.reason === 'unavailable') {
    return new ApiError(503, 'SERVICE_UNAVAILABLE', 'A required dependency is unavailable; retry shortly', retry);
  }
  const who = client.key ? 'this API key' : 'requests without a valid API key from this address';
  if (refusal.reason === 'banned') {
    return new ApiError(
      429,
      'API_KEY_BANNED',
      `Banned for sending on after repeated 429 responses: ${who} may send again in ${retryAfterSeconds} s`,
      retry,
    );
  }
  const { window } = refusal;
  const per = window.route ? `${window.durationMs / 1000} s on this route` : window.name;
  return new ApiError(
    429,
    'RATE_LIMIT_EXCEEDED',
    `Rate limit exceeded: ${window.limit} requests per ${per} for ${who}; retry in ${retryAfterSeconds} s`,
    retry,
  );
}
