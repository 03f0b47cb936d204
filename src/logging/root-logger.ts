import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogLevel } from '../config/app.config.js';
import { LineBatch } from './line-batch.js';
import {
  type EncodedText,
  jsonText,
  type RequestJsonParts,
  serializeError,
  serializeRequest,
} from './log-serializers.js';
import { redactText } from './redaction.js';

/** Where log lines go: stdout (JSON, or readable text on a terminal); tests substitute a stream. */
export const LOG_DESTINATION = Symbol('LogDestination');
/** The application's root pino logger. */
export const ROOT_LOGGER = Symbol('RootLogger');
/** How a line logged during a request looks, in JSON: pino-http binds the request id. */
const REQUEST_ID_FIELD = '"reqId":';

/** JSON lines are gathered up to this many bytes before a write (a few request lines)… */
const BATCH_BYTES = 64 * 1024;
/** …or for at most this long when traffic is light. */
const BATCH_MS = 250;

/**
 * stdout: one JSON object per line, or pino-pretty's readable text when stdout is a
 * terminal. JSON lines are written asynchronously and in batches (encoded into one
 * buffer by `LineBatch`, written by pino's own SonicBoom: one `write` for several
 * lines, none on the request's path); warnings and errors are written at once
 * (`urgentLinesAtOnce`), and what is batched is written out synchronously when the
 * process exits, however it exits, so no line is lost.
 */
export function defaultLogDestination(): DestinationStream {
  if (process.stdout.isTTY) {
    // Loaded only for a terminal: its ~40 files (and its dependencies') are no part of a server's start.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    return pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  }
  const destination = pino.destination({
    dest: 1,
    sync: false,
    // Each batch is written as it comes (a write in progress queues the next). In buffer
    // mode: with strings, SonicBoom measures the byte length of all it holds on every write.
    minLength: 0,
    maxWrite: 4 * BATCH_BYTES,
    contentMode: 'buffer',
  });
  const writeBuffer = destination.write.bind(destination) as unknown as (chunk: Buffer) => boolean;
  const batch = new LineBatch({ write: writeBuffer, flushSync: () => destination.flushSync() }, BATCH_BYTES, BATCH_MS);
  destination.on('write', (bytes: number) => batch.written(bytes));
  process.once('exit', () => batch.flushSync());
  return urgentLinesAtOnce(batch);
}

/** A stream pino writes to that can be told to write out what it holds; it may take a line in parts. */
export interface FlushableStream {
  write(line: string): unknown;
  /** The line `head`, `middle`, `tail`. */
  writeParts?(head: string, middle: Uint8Array, tail: string): void;
  flush(): void;
}

const ROUTINE_LEVELS = ['{"level":"info"', '{"level":"debug"', '{"level":"trace"'];

/**
 * Passes lines to a batching `stream`, and has it write out at once after any line
 * but a routine one of a request: a warning, an error, a 5xx request, and the
 * service's own lines (start-up, shutdown), which are few and should be seen when
 * they happen. Only the one line every request writes waits for the batch. The
 * level is the line's first field (see `createRootLogger`).
 */
export function urgentLinesAtOnce(stream: FlushableStream): RequestLineDestination & { flush(): void } {
  const writeParts = stream.writeParts?.bind(stream);
  return {
    write(line: string) {
      stream.write(line);
      const routine = ROUTINE_LEVELS.some((prefix) => line.startsWith(prefix)) && line.includes(REQUEST_ID_FIELD);
      if (!routine) stream.flush();
    },
    writeRoutine: writeParts
      ? (head, middle, tail) => writeParts(head, middle.bytes, tail)
      : (head, middle, tail) => stream.write(wholeLine(head, middle, tail)),
    flush: () => stream.flush(),
  };
}

/** A routine request line's parts (see `RequestLineDestination`) as one string, for a destination of strings. */
function wholeLine(head: string, middle: EncodedText, tail: string): string {
  return `${head}${middle.text}${tail}`;
}

/**
 * A destination that may be told a line is a routine request line (`requestInfoLineWriter`'s),
 * so that it need not look at the line to know it may wait for the batch. Such a line
 * comes in parts: `head`, `middle` (the request's address and headers, the same for
 * many lines), `tail`.
 */
export interface RequestLineDestination extends DestinationStream {
  writeRoutine?(head: string, middle: EncodedText, tail: string): void;
}

/**
 * The root logger: ISO times, level names, errors with their stack, and no
 * credential a client sent (the rules are in `redaction.ts`): a logged `req` has
 * its URL and headers redacted, a logged `err` its strings redacted and no query
 * parameters; and every line logged during a request (it has a `reqId`) is, as
 * written, free of keys and of `name=value` credentials, whichever field holds
 * them (a 5xx summary quoting the URL, an error message quoting input). Lines
 * outside requests are the service's own: the first admin key is printed that way, once.
 */
export function createRootLogger(level: LogLevel, destination: DestinationStream = defaultLogDestination()): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { req: serializeRequest, err: serializeError },
      hooks: { streamWrite: redactRequestLine },
    },
    destination,
  );
}

/**
 * What the log line of a request says about it (besides level, time and msg), in
 * the order written; `req` is the request itself for pino's serializer, or its
 * JSON text already (`requestJsonParts`) for `requestInfoLineWriter`.
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
  readonly req: Req;
}

/** Writes one routine line of a request: `fields` (its `req` as JSON text, `requestJsonParts`) and `msg`. */
export type RequestLineWriter = (fields: RequestLineFields<RequestJsonParts>, msg: string) => void;

/**
 * The info line of a request exactly as `root.info(fields, msg)` writes it (level,
 * ISO time, the root's bindings, the fields in order, msg; redacted as every
 * request line is), put together field by field: every request writes one, and
 * pino's general path (a serializer lookup per field, hooks), or copies of the
 * fields into one object for a single `JSON.stringify`, cost several times as much.
 * Redacted part by part, as `redactText` would redact the whole line (a key or a
 * `name=value` never reaches past the quotes of its JSON string): `req` comes
 * redacted (`requestJsonParts`), the root's bindings are redacted once, and each
 * string field on its own, so the whole line is never searched and copied again;
 * nor made as one string: the destination takes it in parts (`writeRoutine`).
 */
export function requestInfoLineWriter(root: Logger, destination: RequestLineDestination): RequestLineWriter {
  // The root's bindings as pino writes them after the time (`,"pid":…,"hostname":…`).
  const bindings = String((root as unknown as Record<symbol, unknown>)[pino.symbols.chindingsSym] ?? '');
  const prefix = `{"level":"info","time":"`;
  const afterTime = redactText(`"${bindings},"reqId":`);
  const clock = isoClock();
  const write =
    destination.writeRoutine?.bind(destination) ??
    ((head: string, middle: EncodedText, tail: string) => destination.write(wholeLine(head, middle, tail)));
  return (fields, msg) => {
    if (!root.isLevelEnabled('info')) return;
    const { reqId, method, route, status, durationMs, apiKeyId, code, req } = fields;
    let line = `${prefix}${clock()}${afterTime}${jsonText(reqId)},"method":${repeatedJsonText(method)},"route":${
      route === null ? 'null' : repeatedJsonText(route)
    },"status":${status},"durationMs":${durationMs}`;
    if (apiKeyId !== undefined) line += `,"apiKeyId":${apiKeyId}`;
    if (code !== undefined) line += `,"code":${repeatedJsonText(code)}`;
    write(
      `${line},"req":{"url":${req.url}`,
      req.rest,
      `,"msg":${route === null ? jsonText(msg) : repeatedJsonText(msg)}}\n`,
    );
  };
}

/**
 * Most strings a request line holds but its id and URL are the same few, line after
 * line (methods, route templates, codes, the msg of a routed request): quoted once.
 */
const quotedOnce = new Map<string, string>();
const MAX_QUOTED_ONCE = 1000;

/** `jsonText`, kept for a string seen before (by value: a kept string object's hash is computed once). */
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
