import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { CREDENTIAL_HEADERS, redactHeaders, redactText, redactUrl } from './redaction.js';

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
 * mounted under a path), with what pino's `redact` cannot express redacted: keys
 * and credential parameters in the URL, headers named like credentials or holding
 * a key. The headers `redact` censors (`CREDENTIAL_HEADERS`) are left to it.
 */
export function serializeRequest(req: IncomingMessage & { originalUrl?: string }): LoggedRequest {
  return {
    url: redactUrl(req.originalUrl ?? req.url ?? ''),
    remoteAddress: req.socket?.remoteAddress,
    headers: redactHeaders(req.headers, CREDENTIAL_HEADERS),
  };
}

/** Printable ASCII but `"` and `\\`: JSON quotes such a string as it is. */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * `redactText(JSON.stringify(value))`, cheaper for the plain strings a request line
 * mostly holds (ids, methods, route templates, codes): `JSON.stringify` of a short
 * string is a call into V8's runtime, several times the cost of the test.
 */
export function jsonText(value: string): string {
  return PLAIN_JSON.test(value) ? `"${redactText(value)}"` : redactText(JSON.stringify(value));
}

/** A connection's last request headers (as sent) and address, and the part of the line they made. */
interface LoggedConnection {
  readonly raw: readonly string[];
  readonly address: string | undefined;
  readonly rest: string;
}

/** By connection: the clients of an API send the same headers request after request on a connection. */
const lastConnectionParts = new WeakMap<object, LoggedConnection>();

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `req` as a routine request line writes it (`requestInfoLineWriter`): the JSON of
 * `serializeRequest` with the credential headers censored as `redact` censors them,
 * redacted as every request line is. Each JSON value is redacted on its own: a key
 * or a `name=value` never reaches past the quotes of its string, so the parts
 * redacted alike make the whole redacted alike. The address and headers part is
 * made once per connection for as long as its requests send the same headers
 * (compared as sent, `rawHeaders`, of which `req.headers` is Node's function).
 */
export function requestJson(req: IncomingMessage & { originalUrl?: string }): string {
  return `{"url":${jsonText(redactUrl(req.originalUrl ?? req.url ?? ''))}${connectionPart(req)}`;
}

function connectionPart(req: IncomingMessage): string {
  const { socket, rawHeaders } = req;
  const address = socket?.remoteAddress;
  const last = socket ? lastConnectionParts.get(socket) : undefined;
  if (last && last.address === address && Array.isArray(rawHeaders) && sameStrings(last.raw, rawHeaders)) {
    return last.rest;
  }
  const addressJson = address === undefined ? '' : `,"remoteAddress":${jsonText(address)}`;
  const rest = `${addressJson},"headers":${redactText(JSON.stringify(redactHeaders(req.headers)))}}`;
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
