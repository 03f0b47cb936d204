import type { NextFunction, Request, Response } from 'express';

/**
 * Lets `If-None-Match` be answered 304 when the request also says `Cache-Control:
 * no-cache`. Express's freshness check (the `fresh` package, which `res.send` asks)
 * calls such a request stale, for end-to-end reloads; but `fetch` — browsers, Node,
 * `@petstore/client` — adds `no-cache` to every request that carries `If-None-Match`,
 * so no fetch-based client would ever get a 304. `no-cache` asks the origin to
 * validate, and comparing the ETag is that validation (RFC 9111 5.2.1.4): the
 * directive has been honoured once the request reaches the service, so it is taken
 * out of the request's headers before the route answers, and Express compares the
 * ETag as for any conditional GET (GitHub's API answers 304 the same way). Without
 * `If-None-Match` (a bare reload, or `If-Modified-Since` alone) nothing changes.
 */
export function validateNoCacheRequests(req: Request, _res: Response, next: NextFunction): void {
  const cacheControl = req.headers['cache-control'];
  if (cacheControl !== undefined && req.headers['if-none-match'] !== undefined) {
    const kept = cacheControl
      .split(',')
      .map((directive) => directive.trim())
      .filter((directive) => directive !== '' && directive.toLowerCase() !== 'no-cache');
    if (kept.length > 0) req.headers['cache-control'] = kept.join(', ');
    else delete req.headers['cache-control'];
  }
  next();
}
