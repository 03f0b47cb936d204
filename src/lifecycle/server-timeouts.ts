import type { Server } from 'node:http';

/**
 * Timeouts of the HTTP server (Node's defaults suit neither a public API nor a
 * proxy in front of it):
 * - `headersTimeout` 10 s: a client gets 10 s to send its headers (slowloris).
 * - `requestTimeout` 30 s: and 30 s for the whole request (bodies are at most 16 KiB).
 * - `keepAliveTimeout` 65 s: an idle keep-alive connection is closed by the proxy
 *   in front (nginx and most load balancers: 60 s) before the service closes it, so
 *   the proxy never sends a request on a connection the service is closing.
 * How long a handler may take is bounded by the database timeouts
 * (`DATABASE_LIMITS`), not here.
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 65_000,
} as const;

export function applyServerTimeouts(server: Server): void {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeout;
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
}
