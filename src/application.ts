import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import type { AppConfig } from './config/app.config.js';
import type { EmbeddedDatabase } from './database/embedded-postgres.js';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { ServerOptionsExpressAdapter } from './lifecycle/server-timeouts.js';
import { flushNodeCompileCache } from './platform/compile-cache.js';
import { PlanTableService } from './rate-limits/plan-table.js';
import { flushTraces } from './tracing/flush-traces.js';

/** How long after listening the compile cache is written to disk (src/platform/compile-cache.ts). */
const COMPILE_CACHE_FLUSH_DELAY_MS = 10_000;

/** The signals the start-up held (main.ts) until the graceful shutdown can take them. */
export interface HeldSignals {
  /** Stops holding: from then on the graceful shutdown answers them. */
  release(): void;
  /** The first signal held, if any: raised again once the service listens. */
  held(): NodeJS.Signals | undefined;
}

/**
 * The Nest application on `database`, listening on `config.port`, with its
 * graceful shutdown (which stops `database` last). A failed start closes what it
 * opened and throws; stopping the database is then the caller's.
 */
export async function startApplication(
  database: EmbeddedDatabase,
  config: AppConfig,
  signals: HeldSignals,
): Promise<void> {
  let app: NestExpressApplication | undefined;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule.register(), new ServerOptionsExpressAdapter(), {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false, // a failed start stops the embedded database and exits 1 (main.ts), not abort()
    });
    const logger = app.get(PinoNestLogger);
    app.useLogger(logger);
    configureApp(app, config);
    // In the same tick, so that no signal falls between the two handlers.
    signals.release();
    installGracefulShutdown(app, {
      graceMs: config.shutdownGraceMs,
      logger,
      // The spans of the shutdown itself included, the last ones go out before the process exits.
      afterClose: () => database.stop().finally(flushTraces),
      exit: (code) => process.exit(code),
    });
    await app.listen(config.port);
    new Logger('Main').log(`Petstore API listening on http://localhost:${config.port} (docs at /docs)`);
    const held = signals.held();
    if (held) process.kill(process.pid, held);
    // The compile cache on disk before anything can kill the process, yet not in the way of
    // the first requests (a new build's cache is a few MB to write).
    setTimeout(flushNodeCompileCache, COMPILE_CACHE_FLUSH_DELAY_MS).unref();
  } catch (error) {
    await app?.close().catch(() => undefined);
    throw error;
  }
  // Re-read the plan table (it is also re-read when the file changes); counters are kept.
  const started = app;
  process.on('SIGHUP', () => started.get(PlanTableService).reload('SIGHUP'));
}
