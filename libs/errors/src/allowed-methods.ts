import type { Request } from 'express';
import { matchingRoutes } from './matching-routes.js';

/**
 * Methods the application serves for a path, read from the Express router, so an
 * unmatched request can be told apart: unknown path (404) or wrong method (405).
 */
export function allowedMethods(req: Request): string[] {
  const methods = new Set<string>();
  for (const route of matchingRoutes(req)) {
    for (const [method, enabled] of Object.entries(route.methods)) {
      if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
