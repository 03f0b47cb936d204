import type { Request } from 'express';

interface RouteLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The route template a request was (or would have been) handled by, such as
 * `/pets/:petId`: what logs and metrics group by, never the raw path with its ids.
 * Requests refused before routing (rate limit, body parser) are matched against
 * the router's routes; a path no route serves has no template.
 */
export function routeTemplate(req: Request): string | undefined {
  const matched = (req as { route?: { path?: unknown } }).route;
  if (typeof matched?.path === 'string') return matched.path;
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } } | undefined)?.router?.stack ?? [];
  const method = req.method.toLowerCase();
  for (const layer of stack) {
    const methods = layer.route?.methods;
    if (!methods || typeof layer.route?.path !== 'string') continue;
    if (!(methods[method] || methods._all || (method === 'head' && methods.get))) continue;
    if (safeMatch(layer, req.path)) return layer.route.path;
  }
  return undefined;
}

function safeMatch(layer: RouteLayer, path: string): boolean {
  try {
    return layer.match(path);
  } catch {
    return false; // a malformed percent-encoding matches nothing
  }
}
