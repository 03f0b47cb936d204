import type { Server } from 'node:http';
import { httpServerOptions, SERVER_TIMEOUTS, ServerOptionsExpressAdapter } from './server-timeouts.js';

describe('server timeouts', () => {
  it('are the documented ones: headers 10 s, whole request 30 s, checked at least every second', () => {
    expect(SERVER_TIMEOUTS.headersTimeout).toBe(10_000);
    expect(SERVER_TIMEOUTS.requestTimeout).toBe(30_000);
    expect(SERVER_TIMEOUTS.keepAliveTimeout).toBe(65_000);
    expect(SERVER_TIMEOUTS.connectionsCheckingInterval).toBeGreaterThan(0);
    expect(SERVER_TIMEOUTS.connectionsCheckingInterval).toBeLessThanOrEqual(1_000);
  });

  it('become options of http.createServer', () => {
    expect(httpServerOptions(SERVER_TIMEOUTS)).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 65_000,
      connectionsCheckingInterval: SERVER_TIMEOUTS.connectionsCheckingInterval,
      requireHostHeader: false,
    });
  });
});

describe('ServerOptionsExpressAdapter', () => {
  // Node's documented properties of a server; connectionsCheckingInterval is an option only (slow-clients e2e).
  const serverOf = (adapter: ServerOptionsExpressAdapter): Server => adapter.getHttpServer();

  it('creates the server with the production timeouts by default', () => {
    const adapter = new ServerOptionsExpressAdapter();
    adapter.initHttpServer({});
    const server = serverOf(adapter);
    expect({
      headersTimeout: server.headersTimeout,
      requestTimeout: server.requestTimeout,
      keepAliveTimeout: server.keepAliveTimeout,
    }).toEqual({
      headersTimeout: SERVER_TIMEOUTS.headersTimeout,
      requestTimeout: SERVER_TIMEOUTS.requestTimeout,
      keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeout,
    });
  });

  it('creates the server with the timeouts it is given', () => {
    const timeouts = {
      headersTimeout: 1_000,
      requestTimeout: 2_000,
      keepAliveTimeout: 3_000,
      connectionsCheckingInterval: 100,
    };
    const adapter = new ServerOptionsExpressAdapter(timeouts);
    adapter.initHttpServer({});
    expect(serverOf(adapter).requestTimeout).toBe(2_000);
  });

  it('refuses the Nest options it does not implement', () => {
    expect(() => new ServerOptionsExpressAdapter().initHttpServer({ forceCloseConnections: true })).toThrow(
      /forceCloseConnections/,
    );
  });
});
