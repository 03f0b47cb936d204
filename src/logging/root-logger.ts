import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { type DestinationStream, type Logger, pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogLevel } from '../config/app.config.js';
import { jsonText, serializeError, serializeRequest } from './log-serializers.js';
import { CREDENTIAL_HEADERS, redactText } from './redaction.js';

/**
 * Where log lines go: stdout (JSON, or readable text on a terminal,
 * `defaultLogDestination`); tests substitute a stream. Any pino destination fits.
 */
export abstract class LogDestination implements DestinationStream {
  abstract write(line: string): void;
}

/**
 * The application's root pino logger, as Nest injects it (pino's `Logger` is an
 * interface, which Nest cannot inject by type): `LoggingModule` builds it once per
 * application from LOG_LEVEL, on the `LogDestination`.
 */
export class RootLogger {
  constructor(readonly logger: Logger) {}
}
/** How a line logged during a request looks, in JSON: the request id is bound or given. */
const REQUEST_ID_FIELD = '"reqId":';

/** What every line carries after its time: pino's default `base`, given explicitly so that the line writer knows it. */
const BASE = { pid: process.pid, hostname: hostname() };

let stdout: DestinationStream | undefined;

/**
 * stdout, one per process (the boot logger of `main.ts` and the application's share
 * it): pino's asynchronous destination (SonicBoom, `sync: false`: no request waits on
 * a `write`; lines that arrive while one is in progress go out together in the next),
 * which pino writes out synchronously when the process exits, however it exits. On
 * a terminal, pino-pretty's readable text instead.
 */
export function defaultLogDestination(): DestinationStream {
  if (stdout) return stdout;
  if (process.stdout.isTTY) {
    // Loaded only for a terminal: its ~40 files (and its dependencies') are no part of a server's start.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    stdout = pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } else {
    stdout = pino.destination({ dest: 1, sync: false });
  }
  return stdout;
}

/**
 * The root logger: ISO times, level names, errors with their stack, and no
 * credential a client sent (the rules are in `redaction.ts`): pino's `redact`
 * censors the credential headers of a logged `req` (`CREDENTIAL_HEADERS`), its
 * serializer the rest of its headers and its URL; a logged `err` has its strings
 * redacted and no query parameters; and every line logged during a request (it has
 * a `reqId`) is, as written, free of keys and of `name=value` credentials, whichever
 * field holds them (a 5xx summary quoting the URL, an error message quoting input).
 * Lines outside requests are the service's own: the first admin key is printed that
 * way, once.
 */
export function createRootLogger(level: LogLevel, destination: DestinationStream = defaultLogDestination()): Logger {
  return pino(
    {
      level,
      base: BASE,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { req: serializeRequest, err: serializeError },
      redact: [...CREDENTIAL_HEADERS].map((name) => `req.headers["${name}"]`),
      hooks: { streamWrite: redactRequestLine },
    },
    destination,
  );
}

/**
 * What the log line of a request says about it (besides level, time and msg), in
 * the order written; `req` is the request itself for pino's serializer, or its
 * JSON text already (`requestJson`) for `requestInfoLineWriter`.
 */
export interface RequestLineFields<Req = object> {
  readonly reqId: string;
  readonly method: string;
  /** The route template (`/pets/:petId`), or null for a path no route serves. */
  readonly route: string | null;
  readonly status: number;
  readonly durationMs: number;
  /** The id of the API key that sent the request, when it sent a valid one; never the key. */
  readonly apiKeyId?: number;
  /** The Error code of a failure (`RATE_LIMIT_EXCEEDED`, …), as recorded by the exception filter. */
  readonly code?: string;
  /** With tracing on: the request's trace and the id of its span (as its `traceresponse` header gives them). */
  readonly traceId?: string;
  readonly spanId?: string;
  readonly req: Req;
}

/** Writes one routine line of a request: `fields` (its `req` as JSON text, `requestJson`) and `msg`. */
export type RequestLineWriter = (fields: RequestLineFields<string>, msg: string) => void;

/**
 * The info line of a request exactly as `root.info(fields, msg)` writes it (level,
 * ISO time, the root's bindings, the fields in order, msg; redacted as every
 * request line is), put together as one template string and handed to the
 * destination: every request writes one, and pino's general path (a serializer
 * lookup and a `redact` pass per line, the hooks) costs about three times as much
 * (docs/operations.md has the figures). Redacted part by part, as `redactText` would
 * redact the whole line (a key or a `name=value` never reaches past the quotes of
 * its JSON string): `req` comes redacted (`requestJson`), the root's bindings are
 * redacted once, and each string field on its own.
 */
export function requestInfoLineWriter(root: Logger, destination: DestinationStream): RequestLineWriter {
  // The base and the logger's bindings as pino writes them after the time (`,"pid":…,"hostname":…`).
  const bindings = JSON.stringify({ ...BASE, ...root.bindings() }).slice(1, -1);
  const afterTime = redactText(`",${bindings},"reqId":`);
  const clock = isoClock();
  return (fields, msg) => {
    if (!root.isLevelEnabled('info')) return;
    const { reqId, method, route, status, durationMs, apiKeyId, code, traceId, spanId, req } = fields;
    let line = `{"level":"info","time":"${clock()}${afterTime}${jsonText(reqId)},"method":${repeatedJsonText(
      method,
    )},"route":${route === null ? 'null' : repeatedJsonText(route)},"status":${status},"durationMs":${durationMs}`;
    if (apiKeyId !== undefined) line += `,"apiKeyId":${apiKeyId}`;
    if (code !== undefined) line += `,"code":${repeatedJsonText(code)}`;
    // Hex ids (the span context's, valid ones only): nothing to escape or redact.
    if (traceId !== undefined) line += `,"traceId":"${traceId}"`;
    if (spanId !== undefined) line += `,"spanId":"${spanId}"`;
    destination.write(`${line},"req":${req},"msg":${route === null ? jsonText(msg) : repeatedJsonText(msg)}}\n`);
  };
}

/**
 * Most strings a request line holds but its id and URL are the same few, line after
 * line (methods, route templates, codes, the msg of a routed request): quoted once.
 */
const quotedOnce = new Map<string, string>();
const MAX_QUOTED_ONCE = 1000;

/** `jsonText`, kept for a string seen before. */
function repeatedJsonText(value: string): string {
  let text = quotedOnce.get(value);
  if (text === undefined) {
    text = jsonText(value);
    if (quotedOnce.size < MAX_QUOTED_ONCE) quotedOnce.set(value, text);
  }
  return text;
}

/** `new Date().toISOString()`, made once per millisecond: lines of one millisecond share it. */
function isoClock(): () => string {
  let at = Number.NaN;
  let iso = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      iso = new Date(now).toISOString();
    }
    return iso;
  };
}

function redactRequestLine(line: string): string {
  return line.includes(REQUEST_ID_FIELD) ? redactText(line) : line;
}
