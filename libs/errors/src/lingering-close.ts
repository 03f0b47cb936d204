import type { IncomingMessage, ServerResponse } from 'node:http';
import { declaresBody } from './declares-body.js';

/** How long, and how much, the rest of a refused request's body is read and discarded before the connection closes. */
export interface LingerLimits {
  /** At most this long after the answer. */
  readonly maxMs: number;
  /** Or once the client has sent nothing for this long. */
  readonly idleMs: number;
  /** Or once this many more bytes have been read. */
  readonly maxBytes: number;
}

/**
 * Short enough that a client trickling a body it was refused is cut within a
 * second; long enough for one sending several MiB at once over a fast link.
 */
export const LINGER_LIMITS: LingerLimits = { maxMs: 600, idleMs: 300, maxBytes: 32 * 1024 * 1024 };

/** Whether the request's body is still arriving (a body is declared and has not fully arrived). */
export function bodyStillArriving(req: IncomingMessage): boolean {
  return declaresBody(req) && !req.complete && !req.readableEnded;
}

/**
 * Answers a request whose body is still arriving, and closes its connection as
 * nginx's lingering close does: the whole answer (`text`, with its status and
 * headers already set on `res`) goes out with `Connection: close` at once, then
 * what the client is still sending is read and discarded until its body ends, it
 * stops sending, or `limits` are reached; only then does the response end and
 * Node close the connection. Closing at once would leave the client's bytes
 * unread, and the kernel would answer them with a reset that can destroy the
 * answer before the client has read it (a Node client sending its body while
 * the refusal arrives then sees EPIPE or ECONNRESET instead of the answer).
 */
export function answerThenLinger(
  req: IncomingMessage,
  res: ServerResponse,
  text: string,
  limits: LingerLimits = LINGER_LIMITS,
): void {
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.setHeader('Connection', 'close');
  res.write(text);
  let read = 0;
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    clearTimeout(total);
    clearTimeout(idle);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    res.end();
  };
  const onData = (chunk: Buffer): void => {
    read += chunk.length;
    if (read > limits.maxBytes) finish();
    else idle.refresh();
  };
  const total = setTimeout(finish, limits.maxMs);
  const idle = setTimeout(finish, limits.idleMs);
  req.on('data', onData);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}
