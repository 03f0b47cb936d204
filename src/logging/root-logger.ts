import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogLevel } from '../config/app.config.js';
import { serializeError, serializeRequest } from './log-serializers.js';
import { CREDENTIAL_HEADERS, redactText } from './redaction.js';

/** Where log lines go: stdout (JSON, or readable text on a terminal); tests substitute a stream. */
export const LOG_DESTINATION = Symbol('LogDestination');
/** The application's root pino logger. */
export const ROOT_LOGGER = Symbol('RootLogger');

/** How a line logged during a request looks, in JSON: pino-http binds the request id. */
const REQUEST_ID_FIELD = '"reqId":';

let stdout: DestinationStream | undefined;

/**
 * stdout, one per process (the boot logger of `main.ts` and the application's share
 * it): pino's asynchronous destination (SonicBoom, `sync: false`: no request waits on
 * a `write`; lines that arrive while one is in progress go out together in the next),
 * which pino writes out synchronously when the process exits. On a terminal,
 * pino-pretty's readable text instead.
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
 * credential a client sent (the rules are in `redaction.ts`): `redact` censors the
 * credential headers of a logged `req`, its serializer the rest of its headers and
 * its URL; a logged `err` has its strings redacted and no query parameters; and
 * every line logged during a request (it has a `reqId`) is, as written, free of keys
 * and of `name=value` credentials, whichever field holds them (a 5xx summary quoting
 * the URL, an error message quoting input). Lines outside requests are the
 * service's own: the first admin key is printed that way, once.
 */
export function createRootLogger(level: LogLevel, destination: DestinationStream = defaultLogDestination()): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { req: serializeRequest, err: serializeError },
      redact: [...CREDENTIAL_HEADERS].map((name) => `req.headers["${name}"]`),
      hooks: { streamWrite: redactRequestLine },
    },
    destination,
  );
}

function redactRequestLine(line: string): string {
  return line.includes(REQUEST_ID_FIELD) ? redactText(line) : line;
}
