import { applyDecorators, type OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { type DiscoveryService, MetadataScanner, type Reflector } from '@nestjs/core';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { discoverRoutes, RouteCatalog, templatePattern } from '@petstore/errors';
import type { Request } from 'express';

/**
 * The metadata keys @nestjs/throttler's decorators write, learnt by applying its
 * public decorators to a probe (the package does not export them): `@Throttle({ name:
 * … })` writes one key per option ending in the throttler's name (the limit's key is the
 * one whose value is the limit), `@SkipThrottle()` one key ending in `default`.
 */
function throttlerKeys(): { limitPrefix: string; skipPlan: string } {
  const name = 'probe';
  const limit = 7_654_321;
  class Limited {}
  Throttle({ [name]: { limit, ttl: 1_000 } })(Limited);
  const limitKey = Reflect.getMetadataKeys(Limited).find(
    (key): key is string =>
      typeof key === 'string' && key.endsWith(name) && Reflect.getMetadata(key, Limited) === limit,
  );
  class Skipped {}
  SkipThrottle()(Skipped);
  const skipPlan = Reflect.getMetadataKeys(Skipped).find(
    (key): key is string => typeof key === 'string' && Reflect.getMetadata(key, Skipped) === true,
  );
  if (limitKey === undefined || skipPlan === undefined) {
    throw new Error("@nestjs/throttler's decorators no longer write the metadata this library reads");
  }
  return { limitPrefix: limitKey.slice(0, -name.length), skipPlan };
}
const { limitPrefix: THROTTLER_LIMIT, skipPlan: SKIP_PLAN } = throttlerKeys();
/** The throttler whose skipping lifts the plan limit: `@SkipThrottle()` means `{ default: true }`. */
export const PLAN_THROTTLER = 'default';
/** Put on route methods exempt from the plan. */
const PLAN_EXEMPT = Symbol('rateLimitPlanExempt');
/** Set by `@SkipThrottleIfIdentified()`: the exemption does not cover anonymous clients. */
const IDENTIFIED_ONLY = 'rateLimit:exemptIfIdentified';

/**
 * Whom a route's exemption from the plan covers: every client (`@SkipThrottle()`),
 * or only identified ones (`@SkipThrottleIfIdentified()`).
 */
export type PlanExemption = 'all' | 'identified';

/**
 * Like `@SkipThrottle()`, but only for clients that `identify` recognised: requests
 * of anonymous clients (`RateLimitClient.anonymous`) are counted and refused as on
 * any route, so a route that answers 401 without credentials cannot be used to try
 * credentials beyond the plan.
 */
export const SkipThrottleIfIdentified = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SkipThrottle(), SetMetadata(IDENTIFIED_ONLY, true));

type Handler = (...args: never[]) => unknown;

/**
 * What the throttler decorators say about the application's routes, read once.
 * At start-up (before Nest registers the routes) it finds the throttler names that
 * routes use in `@Throttle` and the handlers that have a route limit (the guard
 * skips every other handler at the cost of one lookup), and marks the handlers
 * exempt from the plan by `@SkipThrottle()` on the method or its controller.
 * It keeps the application's routes (`RouteCatalog`), so the middleware, which
 * runs before routing, can tell whether a request goes to an exempt route.
 */
export class ThrottledRoutes implements OnApplicationBootstrap {
  /** Every throttler name a route uses, and the plan's. */
  readonly names: readonly string[];
  private readonly limited = new Set<Handler>();
  private routes = new RouteCatalog();
  /** The path patterns of the exempt routes: every request is tested against these only. */
  private exemptPatterns: RegExp[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {
    const names = new Set([PLAN_THROTTLER]);
    const scanner = new MetadataScanner();
    for (const { metatype } of discovery.getControllers()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const key of scanner.getAllMethodNames(prototype)) {
        this.read(prototype[key] as Handler, metatype as Handler, names);
      }
    }
    this.names = [...names];
  }

  /** Whether a handler has a limit of its own (`@Throttle` on it or its controller). */
  hasRouteLimit(handler: unknown): boolean {
    return this.limited.has(handler as Handler);
  }

  onApplicationBootstrap(): void {
    this.routes = new RouteCatalog(discoverRoutes(this.discovery));
    this.exemptPatterns = this.routes.routes
      .filter(({ handler }) => exemptionOf(handler) !== null)
      .map(({ path }) => templatePattern(path));
  }

  /**
   * Whether the request goes to a route exempt from the plan, and for whom (the
   * first route that serves it, as Express picks); null when it is counted. `path`
   * is the request's `req.path`, which the caller has read already.
   */
  exemption(req: Request, path: string): PlanExemption | null {
    for (const pattern of this.exemptPatterns) {
      if (!pattern.test(path)) continue;
      // The exempt route serves it only if no route before it does (e.g. a GET beside an exempt POST).
      const serving = this.routes.serving(req.method, path);
      return serving === undefined ? null : exemptionOf(serving.handler);
    }
    return null;
  }

  private read(method: Handler, controller: Handler, names: Set<string>): void {
    const own = Reflect.getMetadataKeys(method) as unknown[];
    const inherited = Reflect.getMetadataKeys(controller) as unknown[];
    let limited = false;
    for (const key of [...own, ...inherited]) {
      if (typeof key !== 'string' || !key.startsWith(THROTTLER_LIMIT)) continue;
      names.add(key.slice(THROTTLER_LIMIT.length));
      limited = true;
    }
    if (limited) this.limited.add(method);
    if (this.reflector.getAllAndOverride<boolean>(SKIP_PLAN, [method, controller])) {
      const identifiedOnly = this.reflector.getAllAndOverride<boolean>(IDENTIFIED_ONLY, [method, controller]);
      Reflect.defineMetadata(PLAN_EXEMPT, identifiedOnly ? 'identified' : 'all', method);
    }
  }
}

function exemptionOf(handle: unknown): PlanExemption | null {
  if (typeof handle !== 'function') return null;
  const exemption: unknown = Reflect.getMetadata(PLAN_EXEMPT, handle);
  return exemption === 'all' || exemption === 'identified' ? exemption : null;
}
