import type { DestinationStream } from 'pino';

/** One pino log line, parsed. */
export type LogEntry = Record<string, unknown> & { level: string; msg: string; reqId?: string };

/** A pino destination that keeps every line (parsed) for assertions and prints nothing. */
export class LogCapture implements DestinationStream {
  readonly entries: LogEntry[] = [];
  /** The raw text written, to look for what must never appear (keys, secrets). */
  text = '';

  write(chunk: string): void {
    this.text += chunk;
    for (const line of chunk.split('\n')) if (line.trim()) this.entries.push(JSON.parse(line) as LogEntry);
  }

  /** Lines carrying this request id. */
  forRequest(reqId: string): LogEntry[] {
    return this.entries.filter((entry) => entry.reqId === reqId);
  }

  /** The request log line (one per request) of this request id. */
  requestLine(reqId: string): LogEntry | undefined {
    return this.forRequest(reqId).find((entry) => typeof entry.status === 'number' && 'durationMs' in entry);
  }

  clear(): void {
    this.entries.length = 0;
    this.text = '';
  }
}
