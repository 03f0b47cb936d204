import type { Request } from 'express';

/** A route of the Express router: its path template and the methods it serves. */
export interface RouterRoute {
  readonly path: string;
  readonly methods: Readonly<Record<string, boolean>>;
}

interface RouteLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The routes of the application's router whose path matches the request's, in
 * router order, whatever their methods: the one walk of the router, for telling a
 * wrong method (405) from an unknown path (404), and for the route template that
 * logs and metrics group by when a request was refused before routing.
 */
export function matchingRoutes(req: Request): RouterRoute[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } } | undefined)?.router?.stack ?? [];
  const routes: RouterRoute[] = [];
  for (const layer of stack) {
    const route = layer.route;
    if (!route?.methods || typeof route.path !== 'string') continue;
    if (safeMatch(layer, req.path)) routes.push({ path: route.path, methods: route.methods });
  }
  return routes;
}

function safeMatch(layer: RouteLayer, path: string): boolean {
  try {
    return layer.match(path);
  } catch {
    return false; // a malformed percent-encoding matches nothing
  }
}
