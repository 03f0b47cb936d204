import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type NestApplicationOptions, StreamableFile } from '@nestjs/common';
import type { Express, Response } from 'express';
import { ExpressAdapter } from '@nestjs/platform-express';
import { expressMessageClasses } from './express-message-classes.js';
import { replyJson } from './json-reply.js';
import { indexRouteRuns } from './route-index.js';
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
 *
 * Routing: each run of route layers is indexed by first path segment
 * (`indexRouteRuns`), so that a request is matched against the few routes that
 * can serve it instead of every layer registered before them (the busiest routes
 * came after ~25 others). Nest's request/response hook layer is left out: no
 * hook is set, and every request would pass it.
 *
 * Requests and responses are built with the app's prototypes (`expressMessageClasses`),
 * so that Express's per-request prototype change, costly in V8, changes nothing.
 *
 * Replies: a handler's object result is sent by `replyJson` (what `res.json`
 * does for it, without Express's general-purpose steps); anything else as Nest does.
 */
type NotFoundArguments = Parameters<ExpressAdapter['setNotFoundHandler']>;

export class EdgeExpressAdapter extends ExpressAdapter {
  constructor(readonly timeouts: ServerTimeouts = SERVER_TIMEOUTS) {
    super();
    // The one layer ExpressAdapter's constructor adds: it serves the hooks refused below.
    (this.getInstance() as { router: { stack: unknown[] } }).router.stack.length = 0;
  }

  override setOnRequestHook(): never {
    throw new Error('EdgeExpressAdapter does not support request hooks (use a middleware)');
  }

  override setOnResponseHook(): never {
    throw new Error('EdgeExpressAdapter does not support response hooks (use a middleware)');
  }

  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (typeof body === 'object' && body !== null && !(body instanceof StreamableFile) && !(body instanceof Error)) {
      const res = response as Response;
      if (statusCode !== undefined && statusCode !== null) res.status(statusCode);
      if (replyJson(res, body)) return res;
    }
    return super.reply(response, body, statusCode);
  }

  /** Nest sets its not-found handler once every route is registered: the routes are indexed then. */
  override setNotFoundHandler(...args: NotFoundArguments): unknown {
    indexRouteRuns(this.getInstance().router as unknown as Parameters<typeof indexRouteRuns>[0]);
    return super.setNotFoundHandler(...args);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    const unsupported = (['httpsOptions', 'forceCloseConnections', 'return503OnClosing'] as const).filter(
      (name) => options[name],
    );
    if (unsupported.length > 0) {
      throw new Error(`EdgeExpressAdapter does not support ${unsupported.join(', ')}`);
    }
    const app = this.getInstance<Express>();
    const server = createServer(
      { ...httpServerOptions(this.timeouts), ...expressMessageClasses(app), requireHostHeader: false },
      app,
    );
    // An `Expect` other than 100-continue is ignored (RFC 9110 10.1.1 allows it) rather than
    // answered with Node's bare 417: the request is served as if it had none.
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
    this.setHttpServer(server);
  }
}
