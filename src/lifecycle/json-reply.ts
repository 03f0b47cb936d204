import type { Request, Response } from 'express';
import { validateHeaderValue } from 'node:http';
import { takesHeadLines } from '../shared/http/head-lines.js';
import { weakEtag } from '../shared/http/weak-etag.js';

const JSON_UTF8 = 'application/json; charset=utf-8';
const CONTENT_TYPE_LINE = `Content-Type: ${JSON_UTF8}\r\n`;

type EtagFn = (body: string, encoding: BufferEncoding) => string | undefined;

/**
 * Sends a handler's object result as Express's `res.json` followed by `res.send`
 * would: `Content-Type: application/json; charset=utf-8`, `Content-Length`, the
 * app's ETag (its `etag fn` setting), 304 for a fresh conditional GET or HEAD,
 * no body for HEAD. Every JSON answer of a route takes this path, so it leaves out
 * what Express does for any kind of body: charset parsing of a type it has just
 * set, a copy of the body into a Buffer to hash it, the freshness check of a
 * request with no conditional header (never fresh), and the setters' lookups. On a
 * response that takes head lines (the service's), such a request that is not a
 * HEAD gets its Content-Type and ETag as head lines and Node counts the
 * Content-Length of the body `end` sends whole: no `setHeader` at all.
 *
 * Returns false, having done nothing, when the case is not that plain (a
 * Content-Type or ETag set by the handler, JSON settings on the app, a status
 * without a body, a value `JSON.stringify` does not serialize): Express answers it.
 */
export function replyJson(res: Response, body: object): boolean {
  const req: Request = res.req;
  const app = req.app;
  if (
    res.statusCode === 204 ||
    res.statusCode === 205 ||
    res.statusCode === 304 ||
    res.getHeader('content-type') !== undefined ||
    res.getHeader('etag') !== undefined ||
    res.getHeader('transfer-encoding') !== undefined ||
    app.get('json replacer') !== undefined ||
    app.get('json spaces') !== undefined ||
    app.get('json escape')
  ) {
    return false;
  }
  const text = JSON.stringify(body) as string | undefined;
  if (text === undefined) return false;
  const etagFn = app.get('etag fn') as EtagFn | undefined;
  const etag = typeof etagFn === 'function' ? etagFn(text, 'utf8') : undefined;
  const conditional = req.headers['if-none-match'] || req.headers['if-modified-since'];
  if (!conditional && req.method !== 'HEAD' && takesHeadLines(res)) {
    // The plain case as head lines; Node counts the Content-Length of a body sent whole by `end`.
    // The app's etag fn may be anyone's; the service's own makes only valid values.
    if (etag && etagFn !== weakEtag) validateHeaderValue('ETag', etag);
    res.setHeadLines('representation', etag ? `${CONTENT_TYPE_LINE}ETag: ${etag}\r\n` : CONTENT_TYPE_LINE);
    res.end(text, 'utf8');
    return true;
  }
  res.setHeader('Content-Type', JSON_UTF8);
  res.setHeader('Content-Length', Buffer.byteLength(text, 'utf8'));
  if (etag) res.setHeader('ETag', etag); // read by `req.fresh`
  // Express's `req.fresh` is false without If-None-Match or If-Modified-Since: only asked when one is there.
  if (conditional && req.fresh) {
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
  } else if (req.method === 'HEAD') {
    res.end();
  } else {
    res.end(text, 'utf8');
  }
  return true;
}
