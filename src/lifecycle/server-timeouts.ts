import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { expressMessageClasses } from '../platform/express-message-classes.js';

/** How long the HTTP server waits for clients, in milliseconds. */
export interface ServerTimeouts {
  /** From the first byte of a request (or the connection) to the end of its headers. */
  readonly headersTimeout: number;
  /** From the first byte of a request to the end of its body. */
  readonly requestTimeout: number;
  /** An idle kept-alive connection is closed after this long. */
  readonly keepAliveTimeout: number;
  /**
   * How often Node looks for connections past `headersTimeout`/`requestTimeout`:
   * a slow client is cut between the timeout and the timeout plus this.
   */
  readonly connectionsCheckingInterval: number;
}

/**
 * Timeouts of the HTTP server (Node's defaults suit neither a public API nor a
 * proxy in front of it):
 * - `headersTimeout` 10 s: a client gets 10 s to send its headers (slowloris).
 * - `requestTimeout` 30 s: and 30 s for the whole request (bodies are at most 16 KiB).
 *   A handler's own time does not count: it starts once the request is in, and is
 *   bounded by the database timeouts (`DATABASE_LIMITS`).
 * - `keepAliveTimeout` 65 s: an idle keep-alive connection is closed by the proxy
 *   in front (nginx and most load balancers: 60 s) before the service closes it, so
 *   the proxy never sends a request on a connection the service is closing.
 * - `connectionsCheckingInterval` 500 ms: Node checks the first two only this often
 *   (30 s by default, which held slow clients up to 30 s past their timeout).
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 65_000,
  connectionsCheckingInterval: 500,
};

/**
 * The options of `http.createServer` for these timeouts, and `requireHostHeader:
 * false`: an HTTP/1.1 request without `Host` reaches the application, which
 * refuses it in the Error shape (`configureApp`) rather than Node with a bare 400.
 * `connectionsCheckingInterval` and `requireHostHeader` can only be given here.
 */
export function httpServerOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersTimeout,
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    requireHostHeader: false,
  };
}

/**
 * Nest's `ExpressAdapter`, whose HTTP server is made with `httpServerOptions`
 * (Nest's own `initHttpServer` calls `http.createServer` without options), and
 * whose requests and responses are born with the Express app's prototypes
 * (`expressMessageClasses`, src/platform). Only the adapter's public
 * `initHttpServer`/`setHttpServer` are used; routing, replies and everything else
 * are Nest's and Express's own. An `Expect` other than
 * 100-continue is ignored (RFC 9110 10.1.1 allows it) rather than answered with
 * Node's bare 417. HTTPS and Nest's `forceCloseConnections`/`return503OnClosing`
 * are refused: TLS ends at the proxy, and `HttpDrain` does the graceful stop.
 */
export class ServerOptionsExpressAdapter extends ExpressAdapter {
  constructor(readonly timeouts: ServerTimeouts = SERVER_TIMEOUTS) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    const unsupported = (['httpsOptions', 'forceCloseConnections', 'return503OnClosing'] as const).filter(
      (name) => options[name],
    );
    if (unsupported.length > 0) {
      throw new Error(`ServerOptionsExpressAdapter does not support ${unsupported.join(', ')}`);
    }
    const app = this.getInstance<Express>();
    const server = createServer({ ...httpServerOptions(this.timeouts), ...expressMessageClasses(app) }, app);
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
    this.setHttpServer(server);
  }
}
