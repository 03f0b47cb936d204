import { connect } from 'node:net';

/** One HTTP response as read off the wire. */
export interface RawResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a raw connection received, and when the server closed it. */
export interface RawExchange {
  /** Every response the server wrote, in order (more than one on a connection is a bug unless pipelined). */
  readonly responses: readonly RawResponse[];
  /** Bytes after the last complete response (should be empty). */
  readonly trailing: string;
  /** Milliseconds from the connection to its close by the server; null when the test gave up waiting. */
  readonly closedAfterMs: number | null;
}

export interface RawRequest {
  /** Written at once on connecting (nothing when empty). */
  readonly send: string | Buffer;
  /** Written once the first complete response has arrived (a second request on a kept-alive connection). */
  readonly thenSend?: string;
  /** Then written every `everyMs` while the connection is open: a slow client. */
  readonly drip?: string;
  readonly everyMs?: number;
  /** Give up (and close the connection) after this long. */
  readonly giveUpMs?: number;
}

/**
 * Sends bytes the way no HTTP client library would (oversized, malformed, or
 * trickled), then reads until the server closes the connection.
 */
export function rawExchange(port: number, request: RawRequest): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let dripper: NodeJS.Timeout | undefined;
    let closedAfterMs: number | null = null;
    const giveUp = setTimeout(() => socket.destroy(), request.giveUpMs ?? 15_000);
    socket.on('connect', () => {
      if (request.send.length > 0) socket.write(request.send);
      if (request.drip !== undefined) {
        dripper = setInterval(() => {
          if (socket.writable) socket.write(request.drip ?? '');
        }, request.everyMs ?? 200);
      }
    });
    let followed = false;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (request.thenSend === undefined || followed) return;
      if (parseResponses(Buffer.concat(chunks).toString('latin1')).responses.length === 0) return;
      followed = true;
      socket.write(request.thenSend);
    });
    socket.on('end', () => {
      closedAfterMs ??= Date.now() - started;
    });
    // A reset after the response (the server refused to read the rest) is a close too.
    socket.on('error', () => {
      closedAfterMs ??= Date.now() - started;
    });
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(dripper);
      resolve({ ...parseResponses(Buffer.concat(chunks).toString('latin1')), closedAfterMs });
    });
  });
}

function parseResponses(text: string): { responses: RawResponse[]; trailing: string } {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!status) break;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = headers['content-length'] === undefined ? 0 : Number(headers['content-length']);
    const bodyStart = end + 4;
    if (rest.length < bodyStart + length) break;
    responses.push({ status: Number(status[1]), headers, body: rest.slice(bodyStart, bodyStart + length) });
    rest = rest.slice(bodyStart + length);
  }
  return { responses, trailing: rest };
}

/**
 * Asserts that the connection carried exactly one response, an Error-shaped
 * refusal (`{code, message, status}`, JSON, a request id) that closes the
 * connection, and returns it.
 */
export function expectRawError(exchange: RawExchange, status: number, code: string): RawResponse {
  const summary = {
    statuses: exchange.responses.map((r) => r.status),
    trailing: exchange.trailing.slice(0, 200),
    closed: exchange.closedAfterMs !== null,
  };
  expect(summary).toEqual({ statuses: [status], trailing: '', closed: true });
  const [response] = exchange.responses;
  expect(response.headers['content-type']).toMatch(/^application\/json\b/);
  expect(response.headers.connection).toBe('close');
  expect(response.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(JSON.parse(response.body)).toEqual({ code, message: expect.any(String), status });
  return response;
}
