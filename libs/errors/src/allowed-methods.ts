import type { Request } from 'express';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Methods the application serves for a path, read from the Express router, so an
 * unmatched request can be told apart: unknown path (404) or wrong method (405).
 */
export function allowedMethods(req: Request): string[] {
  const router = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router;
  const methods = new Set<string>();
  for (const layer of router?.stack ?? []) {
    if (!layer.route) continue;
    if (!safeMatch(layer, req.path)) continue;
    for (const [method, enabled] of Object.entries(layer.route.methods)) {
      if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

function safeMatch(layer: RouteLayer, path: string): boolean {
  try {
    return layer.match(path);
  } catch {
    return false; // a malformed percent-encoding matches nothing
  }
}
