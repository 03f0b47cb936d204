import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { looksLikeKey } from './redaction.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request (pino-http's `genReqId`): a well-formed incoming
 * `X-Request-Id` is kept (a proxy or client may have made it), anything else is
 * replaced by a new UUID, and so is an id shaped like an API key (it would be
 * echoed and bound to every line). It is sent back on the response.
 */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const keep = typeof incoming === 'string' && VALID_ID.test(incoming) && !looksLikeKey(incoming);
  const id = keep ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
