import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: a well-formed incoming `X-Request-Id` is kept (a proxy or
 * client may have made it), anything else is replaced by a new UUID. It is echoed
 * on the response with `setHeader` (so `res.getHeader('X-Request-Id')` reads it,
 * and a handler setting it again replaces it). Called once per request by the
 * request logger (pino-http's `genReqId`), which binds it to every log line of
 * the request.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
