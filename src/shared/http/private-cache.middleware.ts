import { API_KEY_HEADER } from '@petstore/auth';
import type { NextFunction, Request, Response } from 'express';
import { apiSecurityHeaders, documentSecurityHeaders, type HeaderList } from './security-headers.js';

/** Any cache may keep the answer for its own client only, and must ask again (ETag: 304) before reusing it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/** Whether a path is one of `publicPaths` or below one of them. */
function underAnyOf(publicPaths: readonly string[]): (path: string) => boolean {
  const exact = new Set(publicPaths);
  const below = publicPaths.map((path) => `${path}/`);
  return (path) => exact.has(path) || below.some((prefix) => path.startsWith(prefix));
}

/**
 * Marks a response as meant for one client (`Cache-Control: private, no-cache` and
 * `Vary: X-API-Key`), errors included; `responseDefaults` does it outside the public
 * paths, which keep their own policy. Answers depend on the key (orders, admin lists)
 * and even where the body does not, the rate-limit headers describe one key's or one
 * address's quota. Set before any handler runs: a route's own `Cache-Control` (the
 * health probes set one) replaces it, and CORS appends `Origin` to the `Vary`.
 */
function markPrivateResponse(res: Response): void {
  res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
  if (res.getHeader('Vary') === undefined) res.setHeader('Vary', API_KEY_HEADER);
  else res.vary(API_KEY_HEADER);
}

/**
 * The headers every response starts with, in one middleware: the security headers
 * (helmet's, computed once, see `security-headers.ts`) — the API's, or under the
 * public paths (the documentation) those made for HTML — and, outside the public
 * paths, the private cache policy of `markPrivateResponse`.
 */
export function responseDefaults(
  publicPaths: readonly string[],
  api: HeaderList = apiSecurityHeaders(),
  documents: HeaderList = documentSecurityHeaders(),
): (req: Request, res: Response, next: NextFunction) => void {
  const isPublic = underAnyOf(publicPaths);
  return (req, res, next) => {
    if (isPublic(req.path)) {
      for (const [name, value] of documents) res.setHeader(name, value);
    } else {
      for (const [name, value] of api) res.setHeader(name, value);
      markPrivateResponse(res);
    }
    next();
  };
}
