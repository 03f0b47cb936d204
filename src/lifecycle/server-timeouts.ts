import type { ServerOptions } from 'node:http';

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
 *   (30 s by default, which held slow clients up to 30 s past their timeout). The
 *   check walks only the connections with a request in progress.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 65_000,
  connectionsCheckingInterval: 500,
};

/**
 * The options of `http.createServer` for these timeouts. `connectionsCheckingInterval`
 * can only be given there, not set on a running server.
 */
export function httpServerOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersTimeout,
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
  };
}
