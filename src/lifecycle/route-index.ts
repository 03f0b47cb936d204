import type { NextFunction, Request, Response } from 'express';

/** What the index reads of an Express router layer (`router/lib/layer.js`). */
export interface IndexableLayer {
  readonly route?: {
    readonly path?: unknown;
    _handlesMethod(method: string): boolean;
  };
  match(path: string): false | { readonly params: Record<string, string> };
  handleRequest(req: Request, res: Response, next: NextFunction): void;
}

/** The router's own fields the index reads or replaces. */
interface IndexableRouter {
  stack: IndexableLayer[];
  readonly params: Record<string, unknown>;
  use(handler: IndexedRoutes): unknown;
}

/** The one middleware that stands for a run of route layers; `layers` are those routes, in router order. */
export interface IndexedRoutes {
  (req: Request, res: Response, next: NextFunction): void;
  readonly layers: readonly IndexableLayer[];
}

/** A path segment that can only match itself (no parameter, wildcard, group or escape). */
const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** The first segment of a route's path when it is literal, in lower case; null when it may match any. */
function literalFirstSegment(path: unknown): string | null {
  if (typeof path !== 'string' || !path.startsWith('/')) return null;
  const end = path.indexOf('/', 1);
  const segment = end < 0 ? path.slice(1) : path.slice(1, end);
  return LITERAL_SEGMENT.test(segment) ? segment.toLowerCase() : null;
}

/** The first segment of a request path, in lower case (routes match without regard to case by default). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * A run of route layers as one middleware: the request's first path segment picks
 * the few routes that can match it (those whose path starts with that literal
 * segment, and those whose first segment is a parameter, in router order), and
 * only those are matched, as Express's router would match them: by path, then by
 * method (HEAD reaching the first route whose path matches, as in Express), with
 * `next('route')` going on to the next candidate and any other `next(value)`
 * leaving the run. Express's router matches every layer in turn: ~50 of them,
 * with its per-layer bookkeeping, before the API's busiest routes.
 *
 * Not kept: the router's `app.param()` callbacks (a router with any is not
 * indexed) and the route pattern it records for diagnostics-channel tracing.
 */
export function indexedRoutes(layers: readonly IndexableLayer[]): IndexedRoutes {
  const anywhere: number[] = [];
  const bySegment = new Map<string, number[]>();
  layers.forEach((layer, position) => {
    const segment = literalFirstSegment(layer.route?.path);
    if (segment === null) anywhere.push(position);
    else bySegment.set(segment, [...(bySegment.get(segment) ?? []), position]);
  });
  // Each segment's candidates with the routes that match anywhere, in router order.
  const candidates = new Map<string, readonly IndexableLayer[]>();
  for (const [segment, positions] of bySegment) {
    const merged = [...positions, ...anywhere].sort((a, b) => a - b);
    candidates.set(
      segment,
      merged.map((position) => layers[position]),
    );
  }
  const fallback = anywhere.map((position) => layers[position]);

  const dispatch = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    const routes = candidates.get(firstSegment(path)) ?? fallback;
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== 'route') return next(error);
      while (index < routes.length) {
        const layer = routes[index++];
        let match;
        try {
          match = layer.match(path);
        } catch (failure) {
          return next(failure); // a malformed percent-encoding: no route matches with an error pending
        }
        if (!match) continue;
        const method = req.method;
        if (!layer.route?._handlesMethod(method) && method !== 'HEAD') continue;
        (req as { route?: unknown }).route = layer.route;
        req.params = match.params;
        return layer.handleRequest(req, res, step);
      }
      next();
    };
    step();
  };
  return Object.assign(dispatch, { layers });
}

/**
 * Replaces each run of two or more consecutive route layers of `router` with its
 * `indexedRoutes` middleware, in place. Called once every route is registered;
 * nothing changes for a router with `app.param()` callbacks.
 */
export function indexRouteRuns(router: IndexableRouter): void {
  if (Object.keys(router.params).length > 0) return;
  const stack = router.stack;
  const indexed: IndexableLayer[] = [];
  for (let start = 0; start < stack.length;) {
    let end = start;
    while (end < stack.length && stack[end].route) end++;
    if (end - start < 2) {
      indexed.push(stack[start++]);
      continue;
    }
    // The router makes the layer (a middleware matching every path); it is moved from its end to here.
    router.use(indexedRoutes(stack.slice(start, end)));
    indexed.push(stack.pop() as IndexableLayer);
    start = end;
  }
  router.stack = indexed;
}
