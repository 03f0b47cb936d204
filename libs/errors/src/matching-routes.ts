import type { Request } from 'express';

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

/**
 * The routes of the application's router whose path matches the request's, in
 * router order, whatever their methods: the one walk of the router, for telling a
 * wrong method (405) from an unknown path (404), and for the route template that
 * logs and metrics group by when a request was refused before routing.
 */
export function matchingRoutes(req: Request): RouterRoute[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } } | undefined)?.router?.stack ?? [];
  const routes: RouterRoute[] = [];
  for (const layer of routeLayers(stack)) {
    const route = layer.route;
    if (!route?.methods || typeof route.path !== 'string') continue;
    if (safeMatch(layer, req.path)) routes.push({ path: route.path, methods: route.methods });
  }
  return routes;
}

function safeMatch(layer: RouteLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    return false; // a malformed percent-encoding matches nothing
  }
}
