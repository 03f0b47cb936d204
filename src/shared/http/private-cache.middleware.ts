import { API_KEY_HEADER } from '@petstore/auth';
import type { NextFunction, Request, Response } from 'express';
import { type HeaderList, helmetHeaders } from './security-headers.js';

/** Any cache may keep the answer for its own client only, and must ask again (ETag: 304) before reusing it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/**
 * Marks a response as meant for one client (`Cache-Control: private, no-cache` and
 * `Vary: X-API-Key`), errors included, except under the given public paths (a path
 * and everything below it), which keep their own policy. Answers depend on the key
 * (orders, admin lists) and even where the body does not, the rate-limit headers
 * describe one key's or one address's quota. A route may still set its own
 * `Cache-Control` (the health probes do).
 */
export function markPrivate(publicPaths: readonly string[]): (req: Request, res: Response) => void {
  const exact = new Set(publicPaths);
  const below = publicPaths.map((path) => `${path}/`);
  return (req, res) => {
    const path = req.path;
    if (exact.has(path) || below.some((prefix) => path.startsWith(prefix))) return;
    res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    // Appended to, not replaced by, what CORS adds later (Origin).
    if (res.getHeader('Vary') === undefined) res.setHeader('Vary', API_KEY_HEADER);
    else res.vary(API_KEY_HEADER);
  };
}

/**
 * The headers every response starts with, in one middleware: helmet's (computed
 * once, see `helmetHeaders`) and, outside the public paths, the private cache
 * policy of `markPrivate`.
 */
export function responseDefaults(
  publicPaths: readonly string[],
  security: HeaderList = helmetHeaders(),
): (req: Request, res: Response, next: NextFunction) => void {
  const mark = markPrivate(publicPaths);
  return (req, res, next) => {
    for (const [name, value] of security) res.setHeader(name, value);
    mark(req, res);
    next();
  };
}
