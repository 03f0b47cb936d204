import type { AddressInfo } from 'node:net';
import { expectRawError, rawExchange } from './support/raw-http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Slow clients are cut at the documented timeouts (README, Timeouts): the
 * headers within `headersTimeout`, the whole request within `requestTimeout`,
 * each checked every `connectionsCheckingInterval`. The mechanism is tested with
 * short values; the production values are in src/lifecycle/server-timeouts.spec.ts.
 */
const TIMEOUTS = { headersTimeout: 1_000, requestTimeout: 2_000, connectionsCheckingInterval: 250 };
/** Slack for a loaded machine on top of the checking interval: the point is seconds, not the 30 s of before. */
const MARGIN_MS = 1_500;

describe('slow clients (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({}, { serverTimeouts: TIMEOUTS });
    await t.app.listen(0, '127.0.0.1');
    port = (t.http.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const withinTimeout = (closedAfterMs: number | null, timeoutMs: number) => {
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(closedAfterMs).toBeLessThanOrEqual(timeoutMs + TIMEOUTS.connectionsCheckingInterval + MARGIN_MS);
  };

  it('cuts a client trickling its headers at the headers timeout, with a 408 Error body', async () => {
    const exchange = await rawExchange(port, {
      send: 'GET /pets HTTP/1.1\r\nHost: localhost\r\n',
      drip: 'X-Slow: y\r\n',
      everyMs: 100,
    });
    const response = expectRawError(exchange, 408, 'REQUEST_TIMEOUT');
    expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    withinTimeout(exchange.closedAfterMs, TIMEOUTS.headersTimeout);
  });

  it('cuts a client trickling its body at the request timeout, with a 408 Error body', async () => {
    const exchange = await rawExchange(port, {
      send:
        'POST /categories HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{',
      drip: ' ',
      everyMs: 100,
    });
    expectRawError(exchange, 408, 'REQUEST_TIMEOUT');
    withinTimeout(exchange.closedAfterMs, TIMEOUTS.requestTimeout);
  });

  it('closes a connection that never sends a byte at the headers timeout, without an answer', async () => {
    const exchange = await rawExchange(port, { send: '' });
    expect(exchange.responses).toEqual([]);
    withinTimeout(exchange.closedAfterMs, TIMEOUTS.headersTimeout);
  });

  it('refuses a declared body above 16 KiB at once with 413, without waiting for it', async () => {
    const exchange = await rawExchange(port, {
      send:
        'POST /pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 10485760\r\n\r\n{"name":"a"',
    });
    expectRawError(exchange, 413, 'PAYLOAD_TOO_LARGE');
    expect(exchange.closedAfterMs).toBeLessThan(TIMEOUTS.headersTimeout);
  });

  it('refuses a body on a route that reads none at once, and answers only once', async () => {
    const exchange = await rawExchange(port, {
      send: 'GET /pets HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10485760\r\n\r\n{"name":"a"',
    });
    expectRawError(exchange, 413, 'PAYLOAD_TOO_LARGE');
    expect(exchange.closedAfterMs).toBeLessThan(TIMEOUTS.headersTimeout);
  });

  it('closes the connection after an answer sent before the body arrived, rather than read the rest', async () => {
    const exchange = await rawExchange(port, {
      send: 'POST /pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nRex',
      drip: ' ',
      everyMs: 100,
    });
    expectRawError(exchange, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(exchange.closedAfterMs).toBeLessThan(TIMEOUTS.headersTimeout);
  });

  it('serves a request sent in time as usual', async () => {
    const key = await t.key(['read'], 'enterprise');
    const exchange = await rawExchange(port, {
      send: `GET /pets HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`,
    });
    expect(exchange.responses.map((r) => r.status)).toEqual([200]);
  });
});
