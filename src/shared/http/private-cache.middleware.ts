import { API_KEY_HEADER } from '@petstore/auth';
import type { NextFunction, Request, Response } from 'express';
import { FixedHeaderLines, setFixedHeaders, takesHeadLines } from './head-lines.js';
import { apiSecurityHeaders, documentSecurityHeaders, type HeaderList } from './security-headers.js';

/** Any cache may keep the answer for its own client only, and must ask again (ETag: 304) before reusing it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';
const CACHE_CONTROL_LINE = `Cache-Control: ${PRIVATE_CACHE_CONTROL}\r\n`;
const VARY_LINE = `Vary: ${API_KEY_HEADER}\r\n`;

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
 * address's quota. A route may still set its own `Cache-Control` (the health probes do).
 */
function markPrivateResponse(res: Response): void {
  if (takesHeadLines(res)) {
    // As head lines: the cache policy as a default, which a route's own Cache-Control replaces (the
    // health probes set one); Vary as a line of its own, CORS's (Origin) following on a second line,
    // which a cache reads as one list (RFC 9110 5.3).
    res.setHeadLines('cache-control', CACHE_CONTROL_LINE, 'cache-control');
    res.setHeadLines('vary', VARY_LINE);
    return;
  }
  res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
  // Appended to, not replaced by, what CORS adds later (Origin).
  if (res.getHeader('Vary') === undefined) res.setHeader('Vary', API_KEY_HEADER);
  else res.vary(API_KEY_HEADER);
}

/**
 * The headers every response starts with, in one middleware: the security headers
 * (computed once, see `security-headers.ts`) — the API's, rendered once as head
 * lines (`FixedHeaderLines`), or under the public paths (the documentation)
 * those made for HTML — and, outside the public paths, the private cache policy of
 * `markPrivateResponse`.
 */
export function responseDefaults(
  publicPaths: readonly string[],
  api: HeaderList = apiSecurityHeaders(),
  documents: HeaderList = documentSecurityHeaders(),
): (req: Request, res: Response, next: NextFunction) => void {
  const isPublic = underAnyOf(publicPaths);
  const apiLines = new FixedHeaderLines(api);
  return (req, res, next) => {
    if (isPublic(req.path)) {
      for (const [name, value] of documents) res.setHeader(name, value);
    } else {
      setFixedHeaders(res, 'security', apiLines);
      markPrivateResponse(res);
    }
    next();
  };
}
