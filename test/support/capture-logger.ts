import type { LoggerService } from '@nestjs/common';

export interface LogLine {
  readonly level: string;
  readonly message: string;
}

/** A Nest logger that records every line for assertions and prints nothing. */
export class CaptureLogger implements LoggerService {
  readonly lines: LogLine[] = [];

  log(message: unknown, ...rest: unknown[]): void {
    this.record('log', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.record('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.record('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.record('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.record('fatal', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.record('error', message, rest);
  }

  /** Every recorded line of `level` (or all), as one text per line. */
  text(level?: string): string[] {
    return this.lines.filter((line) => level === undefined || line.level === level).map((line) => line.message);
  }

  private record(level: string, message: unknown, rest: unknown[]): void {
    const parts = [message, ...rest].map((part) =>
      part instanceof Error ? (part.stack ?? part.message) : typeof part === 'string' ? part : JSON.stringify(part),
    );
    this.lines.push({ level, message: parts.join(' ') });
  }
}
