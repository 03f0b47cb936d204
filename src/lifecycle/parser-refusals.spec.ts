import { jest } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { ConnectionResponses } from './connection-responses.js';
import { ParserRefusals, rawErrorResponse, type RefusalRecord, refusalFor } from './parser-refusals.js';

const LIMITS = { headersTimeout: 10_000, requestTimeout: 30_000 };
const parserError = (code: string) => Object.assign(new Error('Parse Error'), { code });

describe('refusalFor', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'REQUEST_HEADERS_TOO_LARGE', /16 KiB/],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'REQUEST_TIMEOUT', /10 s.*30 s/],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'PAYLOAD_TOO_LARGE', /too large/],
    ['HPE_INVALID_METHOD', 400, 'VALIDATION_FAILED', /^Malformed HTTP request: unknown method$/],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'VALIDATION_FAILED', /invalid header/],
    ['HPE_SOMETHING_NEW', 400, 'VALIDATION_FAILED', /^Malformed HTTP request/],
  ])('answers %s with %i %s', (code, status, errorCode, message) => {
    expect(refusalFor(parserError(code), LIMITS)).toEqual({
      status,
      code: errorCode,
      message: expect.stringMatching(message),
    });
  });

  it.each(['ECONNRESET', 'EPIPE', 'ETIMEDOUT'])('answers nothing to %s: the connection is gone', (code) => {
    expect(refusalFor(parserError(code), LIMITS)).toBeNull();
  });
});

describe('rawErrorResponse', () => {
  it('is a whole HTTP response with the Error body, closing the connection', () => {
    const text = rawErrorResponse(
      { status: 431, code: 'REQUEST_HEADERS_TOO_LARGE', message: 'Too large' },
      { 'X-Request-Id': 'id-1', 'X-RateLimit-Remaining': '59' },
    );
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 431 Request Header Fields Too Large',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      expect.stringMatching(/^Date: /),
      'X-Request-Id: id-1',
      'X-RateLimit-Remaining: 59',
    ]);
    expect(JSON.parse(body)).toEqual({ code: 'REQUEST_HEADERS_TOO_LARGE', message: 'Too large', status: 431 });
  });
});

/** Sends `text` and collects what the server writes until it closes the connection. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
}

describe('ParserRefusals on a real server', () => {
  let server: Server;
  let port: number;
  const records: RefusalRecord[] = [];
  /** What the handler does; by default it answers after reading the whole request. */
  let handler: (req: IncomingMessage, res: ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    new ParserRefusals(server, new ConnectionResponses(server), {
      rateLimitHeaders: () => Promise.resolve({ 'X-RateLimit-Remaining': '7' }),
      record: (record) => records.push(record),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    records.length = 0;
    handler = (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    };
  });

  it('answers a malformed request with the Error body, the given headers and a request id, then closes', async () => {
    const received = await exchange(port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(received).toMatch(/\r\nX-RateLimit-Remaining: 7\r\n/);
    const id = /\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/.exec(received)?.[1];
    expect(records).toEqual([expect.objectContaining({ status: 400, reqId: id, reason: 'HPE_INVALID_METHOD' })]);
  });

  it('writes nothing over a response that has begun: the connection is only cut', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
    };
    const received = await exchange(
      port,
      'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n',
    );
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).not.toContain('HTTP/1.1 400');
    expect(records).toEqual([]);
  });
});

describe('ParserRefusals whose record fails', () => {
  it('still answers, then cuts the connection and warns, instead of leaving an unhandled rejection', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    new ParserRefusals(server, new ConnectionResponses(server), {
      rateLimitHeaders: () => Promise.resolve(null),
      record: () => {
        throw new Error('the log is gone');
      },
    });
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const received = await exchange((server.address() as AddressInfo).port, 'THIS IS NOT HTTP\r\n\r\n');
      expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/HPE_INVALID_METHOD.*the log is gone/));
    } finally {
      warn.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
