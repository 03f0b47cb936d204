import type { CanActivate, ExecutionContext, OnModuleInit } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ThrottlerGuard, type ThrottlerRequest, type ThrottlerStorage } from '@nestjs/throttler';
import { MINUTE_MS } from './fixed-window.js';
import {
  type HeaderTarget,
  type RateLimitDecision,
  setRateLimitHeaders,
  type WindowView,
  withRouteWindow,
} from './rate-limit-decision.js';
import type { RateLimitOptions, RateLimitRefusal } from './rate-limit.options.js';
import { recallRateLimit, rememberRateLimit } from './request-state.js';
import { PLAN_THROTTLER, type ThrottledRoutes } from './throttled-routes.js';

/** The limit of a throttler on a route without `@Throttle` for it: none (the plan is the middleware's). */
const NO_LIMIT = Number.POSITIVE_INFINITY;
/**
 * Global guard giving route authors @nestjs/throttler's decorators on top of the
 * plan limit that the middleware counts for every request:
 *
 * - `@Throttle({ export: { limit: 10, ttl: minutes(1) } })` adds a route's own
 *   window per client (any throttler name; `ttl` defaults to a minute), refused
 *   with the same 429 as the plan, `Retry-After` and the `X-RateLimit-*` headers
 *   of the window that binds most among the plan's and the route's;
 * - `@SkipThrottle()` exempts a route from the plan (the middleware then reports
 *   without counting, see `ThrottledRoutes`); `@SkipThrottle({ export: true })`
 *   lifts one route limit.
 *
 * It reuses the client the middleware identified and counts only route limits:
 * on a route without `@Throttle` it costs one set lookup and answers at once (a
 * boolean: Nest then takes no async step for it). Any `ThrottlerStorage`
 * serves; the module gives it `ThrottlerStorageAdapter` (the O(1) storages).
 */
export class RateLimitGuard implements CanActivate, OnModuleInit {
  private readonly throttler: RouteThrottler;

  constructor(
    private readonly routes: ThrottledRoutes,
    storage: ThrottlerStorage,
    refusals: Pick<RateLimitOptions, 'refusalError' | 'onRefusal'>,
    reflector: Reflector,
  ) {
    this.throttler = new RouteThrottler(routes, storage, refusals, reflector);
  }

  onModuleInit(): Promise<void> {
    return this.throttler.onModuleInit();
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return this.routes.hasRouteLimit(context.getHandler()) ? this.throttler.canActivate(context) : true;
  }
}

/** @nestjs/throttler's guard counting a route's own `@Throttle` windows (see `RateLimitGuard`). */
class RouteThrottler extends ThrottlerGuard {
  constructor(
    routes: ThrottledRoutes,
    storage: ThrottlerStorage,
    private readonly refusals: Pick<RateLimitOptions, 'refusalError' | 'onRefusal'>,
    reflector: Reflector,
  ) {
    const throttlers = routes.names.map((name) => ({ name, limit: NO_LIMIT, ttl: MINUTE_MS }));
    super({ throttlers, setHeaders: false }, storage, reflector);
  }
  /** The id under which the middleware counted the client: never identified twice. */
  protected override getTracker(req: object): Promise<string> {
    return Promise.resolve(recallRateLimit(req)?.client.id ?? '');
  }

  /** Per client, throttler and route; readable (no hash: storages key by any string). */
  protected override generateKey(context: ExecutionContext, tracker: string, name: string): string {
    return `${tracker}:${name}:${context.getClass().name}.${context.getHandler().name}`;
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, getTracker, generateKey } = request;
    if (limit === NO_LIMIT) return true;
    const { req, res } = this.getRequestResponse(context);
    const state = recallRateLimit(req);
    if (!state) return true; // the limiter is switched off
    const name = throttler.name ?? PLAN_THROTTLER;
    const key = generateKey(context, await getTracker(req, context), name);
    const record = await this.storageService.increment(key, ttl, limit, request.blockDuration, name);
    const route = routeDecision(record, { name, limit, durationMs: ttl }, state.decision?.now ?? Date.now());
    const combined = withRouteWindow(state.decision, route);
    rememberRateLimit(req, { ...state, decision: combined }); // a second route limit adds to this one
    setRateLimitHeaders(res as HeaderTarget, combined); // replaces the plan decision's fields
    if (combined.outcome === 'allowed') return true;
    // The window that frees last: the route's, or the plan's when this request spent its last one too.
    const { binding } = combined;
    const refusal: RateLimitRefusal = {
      reason: 'limited',
      client: state.client,
      retryAfterSeconds: combined.retryAfterSeconds ?? 1,
      window: {
        name: binding.name,
        limit: binding.limit,
        durationMs: binding.durationMs,
        route: binding === route.binding,
      },
    };
    this.refusals.onRefusal?.(refusal);
    throw this.refusals.refusalError(refusal);
  }
}

/**
 * A throttler record as a decision, in the plan decision's clock (its `now`): the
 * record's times are whole seconds, so `X-RateLimit-Reset` may be up to a second
 * late, never early.
 */
function routeDecision(
  record: Awaited<ReturnType<ThrottlerStorage['increment']>>,
  rule: Pick<WindowView, 'name' | 'limit' | 'durationMs'>,
  now: number,
): RateLimitDecision {
  const blocked = record.isBlocked;
  const window: WindowView = {
    ...rule,
    remaining: blocked ? 0 : Math.max(0, rule.limit - record.totalHits),
    resetAt: now + 1000 * (blocked ? record.timeToBlockExpire : record.timeToExpire),
  };
  return {
    outcome: blocked ? 'limited' : 'allowed',
    now,
    windows: [window],
    binding: window,
    retryAfterSeconds: blocked ? Math.max(1, record.timeToBlockExpire) : null,
  };
}
