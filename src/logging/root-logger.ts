import { type DestinationStream, type Logger, pino } from 'pino';
import PinoPretty from 'pino-pretty';
import type { LogLevel } from '../config/app.config.js';
import { serializeError, serializeRequest } from './log-serializers.js';
import { redactText } from './redaction.js';

/** Where log lines go: stdout (JSON, or readable text on a terminal); tests substitute a stream. */
export const LOG_DESTINATION = Symbol('LogDestination');
/** The application's root pino logger. */
export const ROOT_LOGGER = Symbol('RootLogger');
/** How a line logged during a request looks, in JSON: pino-http binds the request id. */
const REQUEST_ID_FIELD = '"reqId":';

/**
 * stdout: one JSON object per line, or pino-pretty's readable text when stdout is a
 * terminal. JSON lines are written asynchronously (pino's own SonicBoom buffer), so
 * no request waits on a `write` system call; what is buffered is written out
 * synchronously when the process exits, however it exits, so no line is lost.
 */
export function defaultLogDestination(): DestinationStream {
  if (process.stdout.isTTY) {
    return PinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  }
  const destination = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => destination.flushSync());
  return destination;
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

function redactRequestLine(line: string): string {
  return line.includes(REQUEST_ID_FIELD) ? redactText(line) : line;
}
