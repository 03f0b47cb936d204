import { matchingRoutes } from '@petstore/errors';
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';

/** What the cache keeps for a method and path no route serves (no route path is a NUL). */
const NO_ROUTE = '\u0000';
/** Method-and-path pairs remembered per router: refused requests (a client over its quota) repeat a few. */
const MAX_REMEMBERED = 1_000;
/** Longer paths are walked every time: they would make the cache's memory the client's to choose. */
const MAX_REMEMBERED_PATH = 256;

/**
 * The templates found by walking a router, by its stack (one per app: apps made in
 * one process, as the tests make them, never share answers). The routes are fixed
 * once the app serves, so an answer stays true.
 */
const walkedRouters = new WeakMap<object, LRUCache<string, string>>();

/**
 * The route template a request was (or would have been) handled by, such as
 * `/pets/:petId`: what logs and metrics group by, never the raw path with its ids.
 * Requests refused before routing (rate limit, body parser) are matched against
 * the router's routes, once per method and path: a refusal costs the router's walk
 * (~4 µs of ~60) only the first time. A path no route serves has no template.
 */
export function routeTemplate(req: Request): string | undefined {
  const matched = (req as { route?: { path?: unknown } }).route;
  if (typeof matched?.path === 'string') return matched.path;
  const stack = (req.app as unknown as { router?: { stack?: object } } | undefined)?.router?.stack;
  const path = req.path;
  if (stack === undefined || path.length > MAX_REMEMBERED_PATH) return walkedTemplate(req);
  let remembered = walkedRouters.get(stack);
  if (!remembered) walkedRouters.set(stack, (remembered = new LRUCache({ max: MAX_REMEMBERED })));
  const key = `${req.method} ${path}`;
  const known = remembered.get(key);
  if (known !== undefined) return known === NO_ROUTE ? undefined : known;
  const template = walkedTemplate(req);
  remembered.set(key, template ?? NO_ROUTE);
  return template;
}

function walkedTemplate(req: Request): string | undefined {
  const method = req.method.toLowerCase();
  const serving = matchingRoutes(req).find(
    ({ methods }) => methods[method] || methods._all || (method === 'head' && methods.get),
  );
  return serving?.path;
}
