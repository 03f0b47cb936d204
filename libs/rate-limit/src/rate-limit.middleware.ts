import {
  type ApiKeyResolver,
  type AuthenticatedRequest,
  authenticateRequest,
  KeyStoreUnavailableError,
} from '@petstore/auth';
import { ApiError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@petstore/errors';
import type { NextFunction, Request, Response } from 'express';
import { clientAddress } from './client-ip.js';
import { rateLimitHeaders, type RateLimitDecision } from './rate-limit-decision.js';
import type { RateLimitObserver } from './rate-limit.observer.js';
import type { RateLimitClient, RateLimiter } from './rate-limiter.js';
import { RateLimitStorageUnavailableError } from './rate-limit.storage.js';

/** Probes must never be throttled: they are reported on, not counted. */
export const DEFAULT_EXEMPT_PATHS = ['/health/live', '/health/ready'] as const;

/**
 * Express middleware, mounted before the body parser so that every response —
 * 401, 404 for unknown routes, 400/413/415 from the body parser, 429, 5xx — has
 * been counted and carries the headers. It resolves the API key (and leaves it
 * on `req.apiKey` for the auth guard); requests without a valid key are counted
 * per client address under the free plan. Each refusal is reported to the
 * observer, if one is given.
 */
export class RateLimitMiddleware {
  private readonly exempt: ReadonlySet<string>;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly resolver: ApiKeyResolver,
    exemptPaths: readonly string[] = DEFAULT_EXEMPT_PATHS,
    private readonly observer: RateLimitObserver | null = null,
  ) {
    this.exempt = new Set(exemptPaths);
  }

  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    this.run(req as AuthenticatedRequest, res).then(
      (rejection) => next(rejection),
      (error: unknown) => next(error),
    );
  };

  private async run(req: AuthenticatedRequest, res: Response): Promise<ApiError | undefined> {
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const consume = !this.exempt.has(path);
    const address: RateLimitClient = { kind: 'address', address: clientAddress(req.ip) };
    let client: RateLimitClient = address;
    try {
      const authentication = await authenticateRequest(req, this.resolver);
      if (authentication.kind === 'key') client = { kind: 'key', key: authentication.key };
    } catch (error) {
      if (!(error instanceof KeyStoreUnavailableError)) throw error;
      // Whether the key is valid is unknown: charge and ban no one, say where the address stands
      // (an exempt probe is still answered: it needs no key).
      if (!consume) return this.report(address, res, undefined);
      return this.report(address, res, error);
    }
    const key = client.kind === 'key' ? client.key : null;
    let decision: RateLimitDecision;
    try {
      decision = await this.limiter.check(client, consume);
    } catch (error) {
      if (!(error instanceof RateLimitStorageUnavailableError)) throw error;
      const refusal = this.failClosed(client, res);
      return consume ? refusal : undefined; // a probe is answered by its route: readiness says what is down
    }
    res.set(rateLimitHeaders(decision));
    if (!consume || decision.outcome === 'allowed') return undefined;
    const retry = { 'Retry-After': String(decision.retryAfterSeconds ?? 1) };
    const who = key ? 'this API key' : 'requests without a valid API key from this address';
    this.observer?.rejected({
      plan: key ? key.plan : 'anonymous',
      reason: decision.outcome === 'banned' ? 'API_KEY_BANNED' : 'RATE_LIMIT_EXCEEDED',
    });
    if (decision.outcome === 'banned') {
      return new ApiError(
        429,
        'API_KEY_BANNED',
        `Banned for sending on after repeated 429 responses: ${who} may send again in ${retry['Retry-After']} s`,
        retry,
      );
    }
    const window = decision.binding;
    return new ApiError(
      429,
      'RATE_LIMIT_EXCEEDED',
      `Rate limit exceeded: ${window.limit} requests per ${window.name} for ${who}; retry in ${retry['Retry-After']} s`,
      retry,
    );
  }

  /** Answers `refusal` (or lets the request on) with the rate-limit headers of `client`, counting nothing. */
  private async report<T extends ApiError | undefined>(
    client: RateLimitClient,
    res: Response,
    refusal: T,
  ): Promise<T | ApiError> {
    try {
      res.set(rateLimitHeaders(await this.limiter.check(client, false)));
    } catch (error) {
      if (!(error instanceof RateLimitStorageUnavailableError)) throw error;
      const closed = this.failClosed(client, res);
      return refusal && closed;
    }
    return refusal;
  }

  private failClosed(client: RateLimitClient, res: Response): ApiError {
    const limits = this.limiter.limitsFor(client);
    const retryAfter = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
    res.set({
      'X-RateLimit-Limit': String(limits.perMinute),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
    return new ApiError(503, 'SERVICE_UNAVAILABLE', 'A required dependency is unavailable; retry shortly', {
      'Retry-After': retryAfter,
    });
  }
}
