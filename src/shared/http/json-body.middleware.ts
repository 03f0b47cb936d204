import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError, declaresBody, ValidationFailedError } from '@petstore/errors';
import { nestsDeeperThan } from './json-depth.js';

/** Request bodies above this size are refused with 413 before being read whole. */
export const BODY_LIMIT_BYTES = 16 * 1024;
/**
 * Deepest nesting of objects and arrays a body may have. The service's own bodies
 * nest two levels; the bound keeps the parser and the recursive validators far
 * from the stack limit (a few thousand levels fit in 16 KiB).
 */
export const MAX_JSON_DEPTH = 32;
const JSON_TYPES = ['application/json', 'application/*+json'];

const parseJson = express.json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: JSON_TYPES,
  // Runs on the raw bytes before JSON.parse; body-parser passes the thrown error on (its status kept).
  verify: (_req, _res, bytes) => {
    if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) {
      throw new ValidationFailedError([`request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`]);
    }
  },
});

/**
 * Bodies must be JSON objects of at most 16 KiB: other media types are 415, parse
 * failures 400 `MALFORMED_JSON` (via the global filter), arrays and scalars 400.
 */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!declaresBody(req)) return next();
  // Declared too large: refused at once (the body parser would first read, and wait for, the whole body).
  if (Number(req.headers['content-length']) > BODY_LIMIT_BYTES) {
    return next(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body exceeds the 16 KiB limit'));
  }
  if (!req.is(JSON_TYPES)) {
    return next(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json'));
  }
  parseJson(req, res, (error?: unknown) => {
    if (error) return next(error);
    const body: unknown = req.body;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return next(new ValidationFailedError(['request body must be a JSON object']));
    }
    next();
  });
}
