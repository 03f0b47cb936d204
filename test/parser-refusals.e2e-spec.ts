import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { LogCapture } from './support/log-capture.js';
import { expectRawError, rawExchange, type RawResponse } from './support/raw-http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Requests that Node's HTTP parser refuses before any middleware runs (API.md
 * section 7: "Refusals made before routing … are in the Error shape too"), sent
 * over raw sockets because no HTTP client would send them.
 */
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

const LONG_URL = `GET /pets?filler=${'a'.repeat(64 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
const LONG_HEADERS =
  'GET /pets HTTP/1.1\r\nHost: localhost\r\n' +
  Array.from({ length: 64 }, (_, i) => `X-Filler-${i}: ${'a'.repeat(1024)}\r\n`).join('') +
  '\r\n';

async function listen(t: TestApp): Promise<number> {
  await t.app.listen(0, '127.0.0.1');
  return (t.http.address() as AddressInfo).port;
}

const remaining = (response: RawResponse | request.Response): number =>
  Number((response.headers as Record<string, string>)['x-ratelimit-remaining']);

describe('refusals by the HTTP parser (e2e)', () => {
  let t: TestApp;
  let port: number;
  const log = new LogCapture();

  beforeAll(async () => {
    t = await createTestApp({}, { logStream: log });
    port = await listen(t);
  });
  afterAll(() => t.close());

  it.each([
    ['a 64 KiB URL', LONG_URL, 431, 'REQUEST_HEADERS_TOO_LARGE'],
    ['a 64 KiB header block', LONG_HEADERS, 431, 'REQUEST_HEADERS_TOO_LARGE'],
    ['an unknown method', 'THIS IS NOT HTTP\r\n\r\n', 400, 'VALIDATION_FAILED'],
    ['junk after the HTTP version', 'GET /pets HTTP/1.1 junk\r\nHost: localhost\r\n\r\n', 400, 'VALIDATION_FAILED'],
    ['a space in the path', 'GET /pe ts HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'VALIDATION_FAILED'],
    [
      'a header name with a space',
      'GET /pets HTTP/1.1\r\nHost: localhost\r\nBad Name: v\r\n\r\n',
      400,
      'VALIDATION_FAILED',
    ],
    ['a NUL in a header value', 'GET /pets HTTP/1.1\r\nHost: localhost\r\nX-A: a\0b\r\n\r\n', 400, 'VALIDATION_FAILED'],
    [
      'two Content-Length headers',
      'POST /pets HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      400,
      'VALIDATION_FAILED',
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /pets HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'VALIDATION_FAILED',
    ],
  ])('answers %s with an Error body, the rate-limit headers and a close', async (_name, text, status, code) => {
    const response = expectRawError(await rawExchange(port, { send: text }), status, code);
    for (const name of RATE_LIMIT_HEADERS)
      expect({ name, value: response.headers[name] }).toEqual({ name, value: expect.stringMatching(/^\d+$/) });
    const body = JSON.parse(response.body) as { message: string };
    // Says what was wrong in the service's words, not the parser's (no fingerprint of the stack).
    expect(body.message).not.toMatch(/HPE_|llhttp|Parse Error|RTSP|ICE\//);
  });

  it('answers a chunked body that breaks the chunk syntax with an Error body (the request had reached the app)', async () => {
    const text =
      'POST /pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n';
    expectRawError(await rawExchange(port, { send: text }), 400, 'VALIDATION_FAILED');
  });

  it('answers an HTTP/1.1 request without Host in the Error shape', async () => {
    const exchange = await rawExchange(port, { send: 'GET /pets HTTP/1.1\r\n\r\n' });
    const response = expectRawError(exchange, 400, 'VALIDATION_FAILED');
    expect(JSON.parse(response.body)).toEqual(expect.objectContaining({ message: expect.stringContaining('Host') }));
    expect(response.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  });

  it('serves a request with an unknown expectation instead of a bare 417', async () => {
    const exchange = await rawExchange(port, {
      send: 'GET /pets HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\nConnection: close\r\n\r\n',
    });
    expectRawError(exchange, 401, 'UNAUTHENTICATED');
  });

  it('answers CONNECT in the Error shape rather than dropping the connection', async () => {
    const exchange = await rawExchange(port, {
      send: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    });
    expectRawError(exchange, 400, 'VALIDATION_FAILED');
  });

  it('counts a parser refusal against the client address, as any request without a key', async () => {
    const before = await request(t.http).get('/health/live'); // reported, not counted
    const refused = expectRawError(await rawExchange(port, { send: LONG_URL }), 431, 'REQUEST_HEADERS_TOO_LARGE');
    const after = await request(t.http).get('/health/live');
    expect([remaining(refused), remaining(after)]).toEqual([remaining(before) - 1, remaining(before) - 1]);
  });

  it('refuses garbage sent after a complete exchange on a kept-alive connection', async () => {
    const exchange = await rawExchange(port, {
      send: 'GET /pets HTTP/1.1\r\nHost: localhost\r\n\r\n',
      thenSend: 'THIS IS NOT HTTP\r\n\r\n',
    });
    expect(exchange.responses.map((r) => r.status)).toEqual([401, 400]);
    expect(JSON.parse(exchange.responses[1].body)).toEqual({
      code: 'VALIDATION_FAILED',
      message: expect.any(String),
      status: 400,
    });
    expect(exchange.trailing).toBe('');
  });

  it('logs each refusal once under its request id, and never the request (it may carry a key)', async () => {
    const secret = 'psk_never_logged_0123456789abcdefghijklmnopqrstu';
    const text = LONG_HEADERS.replace('Host: localhost\r\n', `Host: localhost\r\nX-API-Key: ${secret}\r\n`);
    const response = expectRawError(await rawExchange(port, { send: text }), 431, 'REQUEST_HEADERS_TOO_LARGE');
    expect(log.forRequest(response.headers['x-request-id'])).toEqual([
      expect.objectContaining({
        level: 'info',
        status: 431,
        code: 'REQUEST_HEADERS_TOO_LARGE',
        reason: 'HPE_HEADER_OVERFLOW',
        remoteAddress: expect.stringContaining('127.0.0.1'),
      }),
    ]);
    expect(log.text).not.toContain(secret);
  });

  it('documents 408 and 431 on every operation of the OpenAPI document, with their codes', async () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>> };
    type Response = { content: { 'application/json': { examples: Record<string, { value: { code: string } }> } } };
    const doc = (await request(t.http).get('/openapi.json').expect(200)).body as Doc & {
      components: { responses: Record<string, Response> };
    };
    const codesOf = (ref: string | undefined) =>
      Object.values(
        doc.components.responses[String(ref).split('/').pop() ?? '']?.content['application/json'].examples ?? {},
      ).map((example) => example.value.code);
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect({
          operation: `${method} ${path}`,
          408: codesOf(operation.responses['408']?.$ref),
          431: codesOf(operation.responses['431']?.$ref),
        }).toEqual({
          operation: `${method} ${path}`,
          408: ['REQUEST_TIMEOUT'],
          431: ['REQUEST_HEADERS_TOO_LARGE'],
        });
      }
    }
  });

  it('still serves after a client vanished mid-request', async () => {
    const exchange = await rawExchange(port, { send: 'GET /pets HTTP/1.1\r\nHost: loc', giveUpMs: 100 });
    expect(exchange.responses).toEqual([]);
    await request(t.http).get('/health/live').expect(200);
  });
});

describe('refusals by the HTTP parser behind a trusted proxy (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    port = await listen(t);
  });
  afterAll(() => t.close());

  it('omits the rate-limit headers: the proxy connects, the client behind it is unknown', async () => {
    const response = expectRawError(await rawExchange(port, { send: LONG_HEADERS }), 431, 'REQUEST_HEADERS_TOO_LARGE');
    for (const name of RATE_LIMIT_HEADERS)
      expect({ name, value: response.headers[name] }).toEqual({ name, value: undefined });
  });
});
