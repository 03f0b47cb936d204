import { matchingRoutes } from '@petstore/errors';
import type { Request } from 'express';

/**
 * The route template a request was (or would have been) handled by, such as
 * `/pets/:petId`: what logs and metrics group by, never the raw path with its ids.
 * Requests refused before routing (rate limit, body parser) are matched against
 * the router's routes (`matchingRoutes`, which remembers each path's answer); a
 * path no route serves has no template.
 */
export function routeTemplate(req: Request): string | undefined {
  const matched = (req as { route?: { path?: unknown } }).route;
  if (typeof matched?.path === 'string') return matched.path;
  const method = req.method.toLowerCase();
  const serving = matchingRoutes(req).find(
    ({ methods }) => methods[method] || methods._all || (method === 'head' && methods.get),
  );
  return serving?.path;
}
