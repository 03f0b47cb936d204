import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { httpServerOptions, SERVER_TIMEOUTS, type ServerTimeouts } from './server-timeouts.js';

/**
 * Nest's Express adapter, creating the HTTP server itself with the service's
 * timeouts: Nest's own `initHttpServer` calls `http.createServer` without
 * options, and `connectionsCheckingInterval` cannot be set afterwards. Also
 * `requireHostHeader: false`, so that an HTTP/1.1 request without `Host` reaches
 * the application, which refuses it in the Error shape (`configureApp`) rather
 * than Node with a bare 400; likewise an unknown `Expect` is not Node's bare 417.
 *
 * `main.ts` and the test app pass one to Nest; `configureApp` refuses an app
 * built without it. HTTPS and Nest's `forceCloseConnections`/`return503OnClosing`
 * are not supported (TLS ends at the proxy; `HttpDrain` does the graceful stop).
 */
export class EdgeExpressAdapter extends ExpressAdapter {
  constructor(readonly timeouts: ServerTimeouts = SERVER_TIMEOUTS) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    const unsupported = (['httpsOptions', 'forceCloseConnections', 'return503OnClosing'] as const).filter(
      (name) => options[name],
    );
    if (unsupported.length > 0) {
      throw new Error(`EdgeExpressAdapter does not support ${unsupported.join(', ')}`);
    }
    const server = createServer({ ...httpServerOptions(this.timeouts), requireHostHeader: false }, this.getInstance());
    // An `Expect` other than 100-continue is ignored (RFC 9110 10.1.1 allows it) rather than
    // answered with Node's bare 417: the request is served as if it had none.
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
    this.setHttpServer(server);
  }
}
