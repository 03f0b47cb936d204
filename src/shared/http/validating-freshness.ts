import type { Express, Request } from 'express';

/**
 * Makes `req.fresh` (what `res.send` reads to answer 304) honour `If-None-Match`
 * when the request also says `Cache-Control: no-cache`. Express's check (the `fresh`
 * package) calls such a request stale, for end-to-end reloads; but `fetch` — browsers,
 * Node, `@petstore/client` — adds `no-cache` to every request that carries
 * `If-None-Match`, so no fetch-based client would ever get a 304. `no-cache` asks the
 * origin to validate, and a matching ETag is that validation (RFC 9111 5.2.1.4):
 * answer 304 to it, as GitHub's API does. Without `If-None-Match` (a bare reload, or
 * `If-Modified-Since` alone) Express's answer stands.
 */
export function validateNoCacheRequests(app: Express): void {
  const prototype = app.request as Request;
  const descriptor = findGetter(prototype, 'fresh');
  // Read with Reflect: the getter is called with a request of our choosing as `this`, never detached by mistake.
  const expressGetter: unknown = descriptor && Reflect.get(descriptor, 'get');
  if (typeof expressGetter !== 'function') throw new Error("Express's request no longer has a `fresh` getter");
  const expressFresh = (request: Request): boolean => Boolean(Reflect.apply(expressGetter, request, []));
  Object.defineProperty(prototype, 'fresh', {
    configurable: true,
    enumerable: descriptor?.enumerable,
    get(this: Request): boolean {
      const { headers } = this;
      if (headers['if-none-match'] === undefined || headers['cache-control'] === undefined) {
        return expressFresh(this);
      }
      // The same check on a view of the request without its Cache-Control.
      const view = Object.create(this, { headers: { value: { ...headers, 'cache-control': undefined } } }) as Request;
      return expressFresh(view);
    },
  });
}

function findGetter(object: object, name: string): PropertyDescriptor | undefined {
  for (let o: object | null = object; o !== null; o = Object.getPrototypeOf(o) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(o, name);
    if (descriptor) return descriptor;
  }
  return undefined;
}
