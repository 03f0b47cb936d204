import { context, trace } from '@opentelemetry/api';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@petstore/errors';
import type { NextFunction, Request, Response } from 'express';
import onHeaders from 'on-headers';
import { endDecisionSpan, startDecisionSpan } from './decision-span.js';
import { type RateLimitDecision, refunded, setRateLimitHeaders } from './rate-limit-decision.js';
import type { RateLimitClient, RateLimitOptions, RateLimitRefusal } from './rate-limit.options.js';
import type { RateLimiter } from './rate-limiter.js';
import { RateLimitStorageUnavailableError } from './rate-limit.storage.js';
import { recallRateLimit, rememberRateLimit } from './request-state.js';
import type { PlanExemption, ThrottledRoutes } from './throttled-routes.js';

type MiddlewareOptions = Pick<
  RateLimitOptions,
  'identify' | 'refusalError' | 'onRefusal' | 'onCounted' | 'onNotModified' | 'exemptPaths' | 'exemptPathPrefixes'
>;

/**
 * Express middleware, mounted before the body parser so that every response —
 * 401, 404 for unknown routes, 400/413/415 from the body parser, 429, 5xx — has
 * been counted against the plan and carries the headers. It identifies the client
 * once (with the application's `identify`) and leaves client and decision on the
 * request for the guard. Exempt paths, and routes exempted by `@SkipThrottle()`,
 * get the headers but are never counted nor refused.
 */
export class RateLimitMiddleware {
  private readonly exempt: ReadonlySet<string>;
  /** Each exempt prefix, and the same with a trailing slash: what is below it starts with the latter. */
  private readonly exemptPrefixes: ReadonlyArray<readonly [exact: string, below: string]>;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly options: MiddlewareOptions,
    private readonly routes: ThrottledRoutes | null = null,
  ) {
    this.exempt = new Set(options.exemptPaths ?? []);
    this.exemptPrefixes = (options.exemptPathPrefixes ?? []).map((prefix) => [prefix, `${prefix}/`]);
  }

  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    const span = startDecisionSpan(this.limiter.countsInProcess ? 'memory' : 'redis');
    if (!span) return this.decide(req, res, next);
    // The storage's commands (Redis) under the decision's span; the rest of the request under the request's.
    const request = context.active();
    context.with(trace.setSpan(request, span), () =>
      this.decide(req, res, (error?: unknown) => {
        endDecisionSpan(span, req, error !== undefined);
        context.with(request, () => next(error));
      }),
    );
  };

  private decide(req: Request, res: Response, next: (error?: unknown) => void): void {
    const requested = req.path; // a getter (parses the URL): read once
    const path = requested.length > 1 && requested.endsWith('/') ? requested.slice(0, -1) : requested;
    const exemption = this.isExempt(path) ? 'all' : (this.routes?.exemption(req, requested) ?? null);
    const client = this.options.identify(req);
    if (!(client instanceof Promise)) {
      // Identified at once (a cached key, or none): with counters in this process, no async step at all.
      const consume = consumes(exemption, client);
      const decision = client.unverified ? undefined : this.limiter.checkAtOnce(client, consume);
      if (decision) return next(this.decided(req, res, client, consume, decision));
    }
    this.run(req, res, client, exemption).then(
      (rejection) => next(rejection),
      (error: unknown) => next(error),
    );
  }

  private async run(
    req: Request,
    res: Response,
    identified: RateLimitClient | Promise<RateLimitClient>,
    exemption: PlanExemption | null,
  ): Promise<Error | undefined> {
    const client = await identified;
    const consume = consumes(exemption, client);
    if (client.unverified) {
      // Whether the credentials are valid is unknown: charge and ban no one, say where the fallback stands
      // (an exempt request is still served: it needs no credentials).
      return this.report(client, res, consume ? client.unverified : undefined);
    }
    let decision;
    try {
      decision = await this.limiter.check(client, consume);
    } catch (error) {
      if (!(error instanceof RateLimitStorageUnavailableError)) throw error;
      rememberRateLimit(req, { client, decision: null });
      const refusal = this.failClosed(client, res);
      return consume ? refusal : undefined; // an exempt request is answered by its route (readiness says what is down)
    }
    return this.decided(req, res, client, consume, decision);
  }

  private isExempt(path: string): boolean {
    if (this.exempt.has(path)) return true;
    for (const [exact, below] of this.exemptPrefixes) if (path === exact || path.startsWith(below)) return true;
    return false;
  }

  /** Leaves the decision for the guard, sets the headers and says whether the request is refused. */
  private decided(
    req: Request,
    res: Response,
    client: RateLimitClient,
    consume: boolean,
    decision: RateLimitDecision,
  ): Error | undefined {
    rememberRateLimit(req, { client, decision });
    setRateLimitHeaders(res, decision);
    if (!consume) return undefined;
    if (decision.outcome === 'allowed') {
      if (isConditionalGet(req)) this.refundIfNotModified(req, res, client, decision);
      else this.options.onCounted?.(client);
      return undefined;
    }
    const { binding } = decision;
    const refusal: RateLimitRefusal =
      decision.outcome === 'banned'
        ? {
            reason: 'banned',
            client,
            retryAfterSeconds: decision.retryAfterSeconds ?? 1,
            started: decision.banStarted === true,
          }
        : {
            reason: 'limited',
            client,
            retryAfterSeconds: decision.retryAfterSeconds ?? 1,
            window: { name: binding.name, limit: binding.limit, durationMs: binding.durationMs, route: false },
          };
    this.options.onRefusal?.(refusal);
    return this.options.refusalError(refusal);
  }

  /**
   * A conditional GET answered 304 is not charged (as GitHub's API does not): when the
   * response's head is about to be written with 304 (`on-headers`, the moment the status
   * is final and headers can still change), the plan's windows get the request back and
   * the headers show the uncharged state (what the windows held before it). The refund
   * is sent to the storage without waiting: the headers are computed from this request's
   * own decision, which is what the storage holds once the refund lands. `onCounted`
   * hears of such a request then too, unless it is answered 304 (`onNotModified` instead).
   */
  private refundIfNotModified(req: Request, res: Response, client: RateLimitClient, planned: RateLimitDecision): void {
    const limiter = this.limiter;
    const { onCounted, onNotModified } = this.options;
    onHeaders(res, () => {
      if (res.statusCode !== 304) {
        onCounted?.call(this.options, client);
        return;
      }
      onNotModified?.call(this.options, client);
      const current = recallRateLimit(req)?.decision ?? planned;
      setRateLimitHeaders(res, refunded(current, planned.windows.length));
      limiter.refund(client, planned).catch(() => {
        // The storage is down: the request stays charged, as any request would be while it is.
      });
    });
  }

  /** Answers `refusal` (or lets the request on) with the rate-limit headers of `client`, counting nothing. */
  private async report(client: RateLimitClient, res: Response, refusal: Error | undefined): Promise<Error | undefined> {
    try {
      setRateLimitHeaders(res, await this.limiter.check(client, false));
    } catch (error) {
      if (!(error instanceof RateLimitStorageUnavailableError)) throw error;
      const closed = this.failClosed(client, res);
      return refusal && closed;
    }
    return refusal;
  }

  private failClosed(client: RateLimitClient, res: Response): Error {
    const limits = this.limiter.limitsFor(client);
    const retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
    setHeaders(res, {
      'X-RateLimit-Limit': String(limits.perMinute),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + retryAfterSeconds),
    });
    return this.options.refusalError({ reason: 'unavailable', client, retryAfterSeconds });
  }
}

/** A GET or HEAD that the answer may leave unsent (`If-None-Match` or `If-Modified-Since`). */
function isConditionalGet(req: Request): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined)
  );
}

/** Whether a request of `client` is counted against the plan, given its route's exemption. */
function consumes(exemption: PlanExemption | null, client: RateLimitClient): boolean {
  return exemption === null || (exemption === 'identified' && client.anonymous === true);
}

/** Plain header values: Node's own `setHeader`, without Express's `res.set` conversions. */
function setHeaders(res: Response, headers: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, headers[name]);
}
