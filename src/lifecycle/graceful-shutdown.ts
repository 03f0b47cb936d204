import type { Server } from 'node:http';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { HttpDrain } from './http-drain.js';
import { ShutdownState } from './shutdown-state.js';

export interface GracefulShutdownOptions {
  /** How long in-flight requests may finish (SHUTDOWN_GRACE_MS). */
  readonly graceMs: number;
  readonly logger: LoggerService;
  /** Runs after the application has closed (e.g. stops the embedded PostgreSQL). */
  readonly afterClose: () => Promise<void>;
  /** How the process ends (process.exit, replaced in tests). */
  readonly exit: (code: number) => void;
}

/** Shutdown steps beyond the grace period may take this long before the process gives up and exits 1. */
const CLOSE_BUDGET_MS = 20_000;

/**
 * SIGTERM and SIGINT stop the service gracefully, in this order:
 * 1. readiness turns 503 (load balancers stop sending) and the server stops
 *    accepting connections;
 * 2. in-flight requests finish (at most `graceMs`; then their connections are cut);
 * 3. the application closes: the database pool, Redis, the metrics listener;
 * 4. `afterClose` (the embedded PostgreSQL stops), and the process exits 0.
 * Nest's own shutdown hooks would close the pool before the HTTP server, under the
 * feet of the requests still running, hence this order. A second signal cuts the
 * remaining connections at once; the rest of the sequence still runs.
 * Must be installed before the server listens (the drain tracks connections).
 */
export function installGracefulShutdown(app: INestApplication, options: GracefulShutdownOptions): void {
  const { logger, graceMs } = options;
  const drain = new HttpDrain(app.getHttpServer() as Server);
  let stopping = false;

  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    app.get(ShutdownState).begin();
    logger.log(
      `${signal} received: not accepting connections; ${drain.inFlight} requests in flight, ` +
        `waiting up to ${graceMs} ms for them`,
      'Shutdown',
    );
    const report = await drain.drain(graceMs);
    logger.log(
      `HTTP drained in ${report.durationMs} ms: ${report.inFlightAtStart} requests were in flight, ` +
        `${report.servedDuringDrain} more arrived on open connections, ` +
        `${report.cutConnections} connections cut at the end of the grace period`,
      'Shutdown',
    );
    await app.close();
    await options.afterClose();
    logger.log('Stopped', 'Shutdown');
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} received again: cutting the remaining connections`, 'Shutdown');
      drain.cut();
      return;
    }
    stopping = true;
    setTimeout(() => {
      logger.error(`Shutdown did not finish within ${graceMs + CLOSE_BUDGET_MS} ms: exiting`, undefined, 'Shutdown');
      options.exit(1);
    }, graceMs + CLOSE_BUDGET_MS).unref();
    stop(signal).then(
      () => options.exit(0),
      (error: unknown) => {
        logger.error(
          `Shutdown failed: ${error instanceof Error ? error.message : String(error)}`,
          error instanceof Error ? error.stack : undefined,
          'Shutdown',
        );
        options.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
