import type { NextFunction, Request, Response } from 'express';

export type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * Runs `middlewares` in order as one Express layer, as Express would run them as
 * layers of their own: an error passed to `next` (or thrown, or a rejected promise
 * returned) skips the rest and goes to Express's error handling; a middleware
 * that answers without calling `next` ends the sequence. Every request passes the
 * edge middlewares: one layer instead of several saves the router's matching and
 * per-layer bookkeeping on each of them.
 */
export function inSequence(middlewares: readonly Middleware[]): Middleware {
  if (middlewares.length === 1) return middlewares[0];
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null && error !== 'route') return next(error);
      const middleware = middlewares[index++];
      if (middleware === undefined) return next();
      try {
        const result = middleware(req, res, step);
        if (isPromise(result)) result.then(undefined, (rejected: unknown) => next(rejected ?? new Error('Rejected')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
