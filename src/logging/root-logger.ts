import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogLevel } from '../config/app.config.js';
import { serializeError, serializeRequest } from './log-serializers.js';
import { redactText } from './redaction.js';

/** Where log lines go: stdout (JSON, or readable text on a terminal); tests substitute a stream. */
export const LOG_DESTINATION = Symbol('LogDestination');
/** The application's root pino logger. */
export const ROOT_LOGGER = Symbol('RootLogger');
/** How a line logged during a request looks, in JSON: pino-http binds the request id. */
const REQUEST_ID_FIELD = '"reqId":';

/** JSON lines are gathered up to this many bytes before a write (a few request lines)… */
const BATCH_BYTES = 32 * 1024;
/** …or for at most this long when traffic is light. */
const BATCH_MS = 250;

/**
 * stdout: one JSON object per line, or pino-pretty's readable text when stdout is a
 * terminal. JSON lines are written asynchronously and in batches (pino's own
 * SonicBoom buffer: one `write` for several lines, none on the request's path);
 * warnings and errors are written at once (`urgentLinesAtOnce`), and what is
 * buffered is written out synchronously when the process exits, however it exits,
 * so no line is lost.
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
    minLength: BATCH_BYTES,
    maxWrite: 2 * BATCH_BYTES,
    periodicFlush: BATCH_MS,
    // Lines kept as buffers and joined once per batch. With strings, SonicBoom measures
    // the byte length of the batch so far on every write, which copies the whole batch
    // (V8 flattens the concatenated string): about 16 KB copied per request line.
    contentMode: 'buffer',
  });
  process.once('exit', () => destination.flushSync());
  const writeBuffer = destination.write.bind(destination) as unknown as (line: Buffer) => boolean;
  return urgentLinesAtOnce({ write: (line) => writeBuffer(Buffer.from(line)), flush: () => destination.flush() });
}

/** A stream pino writes to that can be told to write out what it holds. */
export interface FlushableStream {
  write(line: string): unknown;
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
  return {
    write(line: string) {
      stream.write(line);
      const routine = ROUTINE_LEVELS.some((prefix) => line.startsWith(prefix)) && line.includes(REQUEST_ID_FIELD);
      if (!routine) stream.flush();
    },
    writeRoutine: (line: string) => stream.write(line),
    flush: () => stream.flush(),
  };
}

/**
 * A destination that may be told a line is a routine request line (`requestInfoLineWriter`'s),
 * so that it need not look at the line to know it may wait for the batch.
 */
export interface RequestLineDestination extends DestinationStream {
  writeRoutine?(line: string): void;
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
  readonly req: Req;
}

/** Writes one routine line of a request: `fields` (its `req` as JSON text, `requestJson`) and `msg`. */
export type RequestLineWriter = (fields: RequestLineFields<string>, msg: string) => void;

/**
 * The info line of a request exactly as `root.info(fields, msg)` writes it (level,
 * ISO time, the root's bindings, the fields in order, msg; redacted as every
 * request line is), put together field by field: every request writes one, and
 * pino's general path (a serializer lookup per field, hooks), or copies of the
 * fields into one object for a single `JSON.stringify`, cost several times as much.
 * Redacted part by part, as `redactText` would redact the whole line (a key or a
 * `name=value` never reaches past the quotes of its JSON string): `req` comes
 * redacted (`requestJson`), the root's bindings are redacted once, and each
 * string field on its own, so the whole line is never searched and copied again.
 */
export function requestInfoLineWriter(root: Logger, destination: RequestLineDestination): RequestLineWriter {
  // The root's bindings as pino writes them after the time (`,"pid":…,"hostname":…`).
  const bindings = String((root as unknown as Record<symbol, unknown>)[pino.symbols.chindingsSym] ?? '');
  const prefix = `{"level":"info","time":"`;
  const afterTime = redactText(`"${bindings},"reqId":`);
  const clock = isoClock();
  const write = destination.writeRoutine?.bind(destination) ?? destination.write.bind(destination);
  return (fields, msg) => {
    if (!root.isLevelEnabled('info')) return;
    const { reqId, method, route, status, durationMs, apiKeyId, code, req } = fields;
    let line = `${prefix}${clock()}${afterTime}${jsonText(reqId)},"method":${jsonText(method)},"route":${
      route === null ? 'null' : jsonText(route)
    },"status":${status},"durationMs":${durationMs}`;
    if (apiKeyId !== undefined) line += `,"apiKeyId":${apiKeyId}`;
    if (code !== undefined) line += `,"code":${jsonText(code)}`;
    write(`${line},"req":${req},"msg":${jsonText(msg)}}\n`);
  };
}

/** Printable ASCII but `"` and `\`: JSON quotes such a string as it is. */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * `redactText(JSON.stringify(value))`, cheaper for the plain strings a request line
 * mostly holds (ids, methods, route templates, codes): `JSON.stringify` of a short
 * string is a call into V8's runtime, several times the cost of the test.
 */
function jsonText(value: string): string {
  return PLAIN_JSON.test(value) ? `"${redactText(value)}"` : redactText(JSON.stringify(value));
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
