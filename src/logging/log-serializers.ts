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
