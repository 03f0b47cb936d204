import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { inspect } from 'node:util';
import type { ConnectionResponses } from './connection-responses.js';

/** An Error-shaped answer the application never saw the request for. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** A refusal answered, for the log. */
export interface RefusalRecord extends Refusal {
  readonly reqId: string;
  /** What the parser found (`HPE_HEADER_OVERFLOW`, `ERR_HTTP_REQUEST_TIMEOUT`, `CONNECT`). */
  readonly reason: string;
  readonly remoteAddress: string | undefined;
}

export interface ParserRefusalOptions {
  /**
   * Counts the refusal against the client and returns the rate-limit headers to
   * send; null when the client cannot be identified or there are no limits.
   */
  readonly rateLimitHeaders: (socket: Socket) => Promise<Readonly<Record<string, string>> | null>;
  readonly record: (refusal: RefusalRecord) => void;
}

/** Parser errors in the service's words: the parser's own would name it (a fingerprint). */
const MALFORMED: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'unknown method',
  HPE_INVALID_URL: 'invalid request target',
  HPE_INVALID_CONSTANT: 'malformed request line',
  HPE_INVALID_VERSION: 'malformed request line',
  HPE_INVALID_HEADER_TOKEN: 'invalid header name or value',
  HPE_INVALID_CONTENT_LENGTH: 'invalid Content-Length',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'invalid Content-Length',
  HPE_INVALID_TRANSFER_ENCODING: 'invalid Transfer-Encoding',
  HPE_INVALID_CHUNK_SIZE: 'malformed chunked body',
};

interface Limits {
  readonly headersTimeout: number;
  readonly requestTimeout: number;
  readonly maxHeaderSize?: number;
}

/**
 * What to answer a client error of Node's HTTP server, mirroring Node's own
 * choice of status (431 for oversized headers, 413 for oversized chunk
 * extensions, 408 for a timeout, 400 for the rest of the parser's refusals) with
 * codes of the Error catalogue. Null for errors of the connection itself
 * (a reset, a broken pipe): nobody is left to answer.
 */
export function refusalFor(error: Error & { code?: string }, limits: Limits): Refusal | null {
  const code = error.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') {
    const kib = Math.round((limits.maxHeaderSize || maxHeaderSize) / 1024);
    return {
      status: 431,
      code: 'REQUEST_HEADERS_TOO_LARGE',
      message: `The request line and headers exceed ${kib} KiB`,
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: 'REQUEST_TIMEOUT',
      message:
        `Request not received in time: the headers must arrive within ${limits.headersTimeout / 1000} s, ` +
        `the whole request within ${limits.requestTimeout / 1000} s`,
    };
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Chunk extensions of the request body are too large' };
  }
  if (!code.startsWith('HPE_')) return null;
  return {
    status: 400,
    code: 'VALIDATION_FAILED',
    message: `Malformed HTTP request: ${MALFORMED[code] ?? 'unreadable'}`,
  };
}

const CONNECT_REFUSAL: Refusal = {
  status: 400,
  code: 'VALIDATION_FAILED',
  message: 'CONNECT is not supported: this service is not a proxy',
};

/** A whole HTTP response carrying the Error body, written straight to the socket. */
export function rawErrorResponse(refusal: Refusal, headers: Readonly<Record<string, string>>): string {
  const body = JSON.stringify({ code: refusal.code, message: refusal.message, status: refusal.status });
  const lines = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    `Date: ${new Date().toUTCString()}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** A refused connection is closed once its answer is out, or after this long regardless. */
const CLOSE_AFTER_MS = 1_000;

/**
 * Answers in the Error shape what Node's HTTP server refuses before the
 * application sees a request: its `clientError`s (oversized or malformed request
 * line and headers, a header or request timeout) and `CONNECT`. The answer has a
 * new `X-Request-Id` (no header of the request was read) and, when the client can
 * be identified, the rate-limit headers; the connection is then closed.
 *
 * Nothing is written when the connection is gone, when a response on it has
 * already begun (it would follow or corrupt that response), or when the client
 * never sent a byte (an idle connection timing out is closed silently: there was
 * no request to answer, or to count).
 */
export class ParserRefusals {
  private readonly refused = new WeakSet<Socket>();

  constructor(
    server: Server,
    private readonly responses: ConnectionResponses,
    private readonly options: ParserRefusalOptions,
  ) {
    server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
      this.refuseOrCut(socket, refusalFor(error, server), error.code ?? error.name);
    });
    server.on('connect', (_req: unknown, socket: Socket) => this.refuseOrCut(socket, CONNECT_REFUSAL, 'CONNECT'));
  }

  /**
   * For the server's events, which drop what their listeners return: a refusal
   * that fails (its record, given by the caller, throws) cuts the connection and
   * says why on the process's warnings, rather than becoming an unhandled rejection.
   */
  private refuseOrCut(socket: Socket, refusal: Refusal | null, reason: string): void {
    this.refuse(socket, refusal, reason).catch((error: unknown) => {
      socket.destroy();
      process.emitWarning(`Refusing a request before routing failed (${reason}): ${inspect(error)}`);
    });
  }

  private async refuse(socket: Socket, refusal: Refusal | null, reason: string): Promise<void> {
    // The parser reports again on every later chunk, and the timeout on every check.
    if (this.refused.has(socket)) return;
    this.refused.add(socket);
    if (!refusal || socket.bytesRead === 0 || !this.writable(socket)) {
      socket.destroy();
      return;
    }
    const headers = await this.options.rateLimitHeaders(socket).catch(() => null);
    // Checked again: the application may have begun a response meanwhile.
    if (!this.writable(socket)) {
      socket.destroy();
      return;
    }
    const reqId = randomUUID();
    socket.end(rawErrorResponse(refusal, { 'X-Request-Id': reqId, ...headers }), () => socket.destroy());
    setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
    this.options.record({ ...refusal, reqId, reason, remoteAddress: socket.remoteAddress });
  }

  private writable(socket: Socket): boolean {
    return socket.writable && !this.responses.hasAnswered(socket);
  }
}
