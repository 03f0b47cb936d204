import type { RouteCatalog } from '@petstore/errors';
import type { Express, Request } from 'express';

/** Where the application's route catalog is kept for `routeTemplate`: the Express app's `locals`. */
const CATALOG_LOCAL = 'routeCatalog';

/** Makes the application's routes known to `routeTemplate` (done once by `configureApp`). */
export function useRouteCatalog(app: Express, catalog: RouteCatalog): void {
  app.locals[CATALOG_LOCAL] = catalog;
}

/**
 * The route template a request was (or would have been) handled by, such as
 * `/pets/:petId`: what logs and metrics group by, never the raw path with its ids.
 * A routed request's is Express's `req.route.path`; one refused before routing
 * (rate limit, body parser) is matched against the application's routes
 * (`useRouteCatalog`), as are the files that a middleware mounted on a path serves
 * (the console's); a path no route serves has no template.
 */
export function routeTemplate(req: Request): string | undefined {
  const matched: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof matched === 'string') return matched;
  const catalog = (req.app?.locals as Record<string, unknown> | undefined)?.[CATALOG_LOCAL] as RouteCatalog | undefined;
  // The whole path: under a middleware mounted on a path (the console's static files), `req.path` is the rest of it.
  const url = req.originalUrl ?? req.url;
  const query = url.indexOf('?');
  return catalog?.serving(req.method, query === -1 ? url : url.slice(0, query))?.path;
}
