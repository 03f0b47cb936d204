import { type DestinationStream, type Logger, pino } from 'pino';
import PinoPretty from 'pino-pretty';
import type { LogLevel } from '../config/app.config.js';

/** Where log lines go: stdout (JSON, or readable text on a terminal); tests substitute a stream. */
export const LOG_DESTINATION = Symbol('LogDestination');
/** The application's root pino logger. */
export const ROOT_LOGGER = Symbol('RootLogger');

/**
 * Never logged: API keys and other credentials a client may send. (The request
 * logger also records only the key's id, never the key.)
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * stdout, written synchronously (a line is never lost at exit): one JSON object per
 * line, or pino-pretty's readable text when stdout is a terminal.
 */
export function defaultLogDestination(): DestinationStream {
  if (process.stdout.isTTY) {
    return PinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  }
  return pino.destination({ dest: 1, sync: true });
}

/** The root logger: ISO times, level names, credentials redacted, errors with their stack. */
export function createRootLogger(level: LogLevel, destination: DestinationStream = defaultLogDestination()): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}
