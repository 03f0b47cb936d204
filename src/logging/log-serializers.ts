import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { redactHeaders, redactText, redactUrl } from './redaction.js';

/** What a log line says about a request: never a credential (see `redaction.ts`). */
export interface LoggedRequest {
  readonly url: string;
  readonly remoteAddress: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** TypeORM's `QueryFailedError` carries the query's parameters: client data, never logged. */
const QUERY_PARAMETERS = 'parameters';
/** How deep nested values of an error (a driver error, a cause) are followed. */
const MAX_DEPTH = 4;

/**
 * The `req` of a log line, from the raw request (Express's `originalUrl` when
 * mounted under a path): runs once per request, so it does no work for a URL or
 * a header that has nothing to redact.
 */
export function serializeRequest(req: IncomingMessage & { originalUrl?: string }): LoggedRequest {
  return {
    url: loggedUrl(req),
    remoteAddress: req.socket?.remoteAddress,
    headers: redactHeaders(req.headers),
  };
}

/** The URL a log line gives for `req`: as the client sent it (`originalUrl` when mounted under a path), redacted. */
function loggedUrl(req: IncomingMessage & { originalUrl?: string }): string {
  return redactUrl(req.originalUrl ?? req.url ?? '');
}

/** Printable ASCII but `"` and `\`: JSON quotes such a string as it is. */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * `redactText(JSON.stringify(value))`, cheaper for the plain strings a request line
 * mostly holds (ids, methods, route templates, codes): `JSON.stringify` of a short
 * string is a call into V8's runtime, several times the cost of the test.
 */
export function jsonText(value: string): string {
  return PLAIN_JSON.test(value) ? `"${redactText(value)}"` : redactText(JSON.stringify(value));
}

/** Text with its UTF-8 bytes, for a destination that copies bytes rather than encoding text again. */
export interface EncodedText {
  readonly text: string;
  readonly bytes: Uint8Array;
}

/**
 * The `req` of a routine request line in two parts: `url`, the JSON text of this
 * request's URL, and `rest`, the address and headers (`,"remoteAddress":…,"headers":{…}}`)
 * as the requests of a connection share them. `{"url":` + `url` + `rest.text` is `requestJson`.
 */
export interface RequestJsonParts {
  readonly url: string;
  readonly rest: EncodedText;
}

/** A connection's last request headers (as sent) and address, and the part of the line they made. */
interface LoggedConnection {
  readonly raw: readonly string[];
  readonly address: string | undefined;
  readonly rest: EncodedText;
}

/** By connection: the clients of an API send the same headers request after request on a connection. */
const lastConnectionParts = new WeakMap<object, LoggedConnection>();

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `redactText(JSON.stringify(serializeRequest(req)))`, the `req` of a routine request
 * line as every request line is written (see `createRootLogger`). Each JSON value is
 * redacted on its own: a key or a `name=value` never reaches past the quotes of its
 * string, so the parts redacted alike make the whole redacted alike, and the line's
 * writer need not look at the whole line again.
 */
export function requestJson(req: IncomingMessage & { originalUrl?: string }): string {
  const { url, rest } = requestJsonParts(req);
  return `{"url":${url}${rest.text}`;
}

/**
 * `requestJson` in its two parts (`RequestJsonParts`). The address and headers part
 * is redacted, serialized and encoded once per connection for as long as its
 * requests send the same headers (compared as sent, `rawHeaders`): that part was a
 * twentieth of the service's CPU per request. `req.headers` is Node's function of
 * `rawHeaders` (the request id middleware's removal of a key-shaped `X-Request-Id`
 * is one of them too), so equal raw headers log alike.
 */
export function requestJsonParts(req: IncomingMessage & { originalUrl?: string }): RequestJsonParts {
  return { url: jsonText(loggedUrl(req)), rest: connectionPart(req) };
}

function connectionPart(req: IncomingMessage): EncodedText {
  const { socket, rawHeaders } = req;
  const address = socket?.remoteAddress;
  const last = socket ? lastConnectionParts.get(socket) : undefined;
  if (last && last.address === address && Array.isArray(rawHeaders) && sameStrings(last.raw, rawHeaders)) {
    return last.rest;
  }
  const addressJson = address === undefined ? '' : `,"remoteAddress":${jsonText(address)}`;
  const text = `${addressJson},"headers":${redactText(JSON.stringify(redactHeaders(req.headers)))}}`;
  const rest = { text, bytes: Buffer.from(text) };
  if (socket && Array.isArray(rawHeaders)) lastConnectionParts.set(socket, { raw: rawHeaders, address, rest });
  return rest;
}

/**
 * The `err` of a log line (a 5xx's detail): pino's error serializer, then every
 * string in it (message, stack, driver fields, nested errors) as `redactText`
 * leaves it, and no query parameters. A new object: the error itself is untouched.
 */
export function serializeError(error: unknown): unknown {
  return redactValue(pino.stdSerializers.err(error as Error), 0);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[Object]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (name !== QUERY_PARAMETERS) copy[name] = redactValue(field, depth + 1);
  }
  return copy;
}
