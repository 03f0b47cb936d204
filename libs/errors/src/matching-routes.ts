import type { Request } from 'express';
import { LRUCache } from 'lru-cache';

/** A route of the Express router: its path template and the methods it serves. */
export interface RouterRoute {
  readonly path: string;
  readonly methods: Readonly<Record<string, boolean>>;
}

interface RouteLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  match(path: string): unknown;
}

/**
 * The route layers of an Express router stack, in router order, those of an
 * indexed run included (the service's adapter replaces each run of routes with
 * one middleware that carries them as `handle.layers`): what anything that
 * looks for the route serving a path must walk.
 */
export function routeLayers<Layer extends object>(stack: readonly Layer[]): Layer[] {
  const found: Layer[] = [];
  for (const layer of stack) {
    const { route, handle } = layer as { route?: unknown; handle?: { layers?: unknown } };
    if (route) found.push(layer);
    else if (Array.isArray(handle?.layers)) found.push(...routeLayers(handle.layers as Layer[]));
  }
  return found;
}

/** Paths remembered per router: refused requests (a client over its quota, a wrong method) repeat a few. */
const MAX_REMEMBERED = 1_000;
/** Longer paths are matched every time: they would make the cache's memory the client's to choose. */
const MAX_REMEMBERED_PATH = 256;

/**
 * What matching a path against a router found, by the router's stack (one per app:
 * apps made in one process, as the tests make them, never share answers). The
 * routes are fixed once the app serves, so an answer stays true.
 */
const matchedByRouter = new WeakMap<object, LRUCache<string, readonly RouterRoute[]>>();

/**
 * The routes of the application's router whose path matches the request's, in
 * router order, whatever their methods: for telling a wrong method (405) from an
 * unknown path (404), and for the route template that logs and metrics group by
 * when a request was refused before routing. The router's layers are walked once
 * per path (~4 µs of a ~60 µs refusal); the answer is remembered for the next.
 */
export function matchingRoutes(req: Request): readonly RouterRoute[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } } | undefined)?.router?.stack;
  if (stack === undefined) return [];
  const path = req.path;
  if (path.length > MAX_REMEMBERED_PATH) return walk(stack, path);
  let remembered = matchedByRouter.get(stack);
  if (!remembered) matchedByRouter.set(stack, (remembered = new LRUCache({ max: MAX_REMEMBERED })));
  let routes = remembered.get(path);
  if (routes === undefined) remembered.set(path, (routes = walk(stack, path)));
  return routes;
}

function walk(stack: readonly RouteLayer[], path: string): readonly RouterRoute[] {
  const routes: RouterRoute[] = [];
  for (const layer of routeLayers(stack)) {
    const route = layer.route;
    if (!route?.methods || typeof route.path !== 'string') continue;
    if (safeMatch(layer, path)) routes.push({ path: route.path, methods: route.methods });
  }
  return Object.freeze(routes);
}

function safeMatch(layer: RouteLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    return false; // a malformed percent-encoding matches nothing
  }
}
