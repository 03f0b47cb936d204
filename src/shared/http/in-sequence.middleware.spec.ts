import type { NextFunction, Request, Response } from 'express';
import { inSequence, type Middleware } from './in-sequence.middleware.js';

const req = {} as Request;
const res = {} as Response;

/**
 * Runs the sequence and resolves with what reached Express's `next` (undefined: plain next()).
 * "Not called" is decided two `setImmediate` turns later: after every step the tests defer with
 * one `setImmediate` (queued first, so run first), however busy the machine (a timer could fire
 * before them on a loaded one).
 */
function run(middlewares: Middleware[]): Promise<{ called: boolean; error: unknown }> {
  return new Promise((resolve) => {
    const next = ((error?: unknown) => resolve({ called: true, error })) as NextFunction;
    inSequence(middlewares)(req, res, next);
    setImmediate(() => setImmediate(() => resolve({ called: false, error: undefined })));
  });
}

describe('inSequence', () => {
  it('runs every middleware in order, then hands on', async () => {
    const seen: number[] = [];
    const outcome = await run([1, 2, 3].map((n) => (_q, _s, next) => (seen.push(n), next())));
    expect(seen).toEqual([1, 2, 3]);
    expect(outcome).toEqual({ called: true, error: undefined });
  });

  it('waits for a middleware that calls next later', async () => {
    const seen: string[] = [];
    const outcome = await run([
      (_q, _s, next) => void setImmediate(() => (seen.push('async'), next())),
      (_q, _s, next) => (seen.push('after'), next()),
    ]);
    expect(seen).toEqual(['async', 'after']);
    expect(outcome.called).toBe(true);
  });

  it("skips the rest on an error passed to next, thrown, or a returned promise's rejection", async () => {
    const failure = new Error('refused');
    const never: Middleware = () => {
      throw new Error('must not run');
    };
    for (const failing of [
      (_q: Request, _s: Response, next: NextFunction) => next(failure),
      () => {
        throw failure;
      },
      () => Promise.reject(failure),
    ] as Middleware[]) {
      await expect(run([failing, never])).resolves.toEqual({ called: true, error: failure });
    }
  });

  it('catches a throw in a middleware run after an asynchronous step', async () => {
    const failure = new Error('late');
    const outcome = await run([
      (_q, _s, next) => void setImmediate(() => next()),
      () => {
        throw failure;
      },
    ]);
    expect(outcome).toEqual({ called: true, error: failure });
  });

  it('ends when a middleware answers without calling next', async () => {
    const outcome = await run([() => undefined, () => Promise.reject(new Error('must not run'))]);
    expect(outcome.called).toBe(false);
  });

  it("continues after next('route'), as Express does between middleware layers", async () => {
    const seen: string[] = [];
    const outcome = await run([(_q, _s, next) => next('route'), (_q, _s, next) => (seen.push('next'), next())]);
    expect(seen).toEqual(['next']);
    expect(outcome).toEqual({ called: true, error: undefined });
  });
});
