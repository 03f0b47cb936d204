import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { ConfigError, LOG_LEVELS, loadAppConfig } from './config/app.config.js';
import { checkStartupConfig } from './config/startup-config.js';
import { resolveDatabaseUrl } from './database/database-url.js';
import type { EmbeddedDatabase } from './database/embedded-postgres.js';
import { EdgeExpressAdapter } from './lifecycle/edge-express-adapter.js';
import { compactHeapSoon } from './lifecycle/compact-heap.js';
import { announceStarted } from './lifecycle/started-event.js';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { createRootLogger } from './logging/root-logger.js';
import { PlanTableService } from './rate-limits/plan-table.js';
import { PlanConfigError } from './rate-limits/plans-file.js';

/** Logs what happens before the application (and its logger) exists, in the same format. */
const bootLog = createRootLogger(
  LOG_LEVELS.find((level) => level === process.env.LOG_LEVEL?.trim().toLowerCase()) ?? 'info',
);

/** A SIGTERM/SIGINT during start-up is held until the graceful shutdown can handle it. */
let heldSignal: NodeJS.Signals | undefined;
const holdSignal = (signal: NodeJS.Signals) => {
  heldSignal ??= signal;
  bootLog.info({ context: 'Shutdown' }, `${signal} received while starting: stopping once started`);
};

async function bootstrap(): Promise<void> {
  process.on('SIGTERM', holdSignal);
  process.on('SIGINT', holdSignal);
  checkStartupConfig(); // fail fast on bad configuration, before starting a database
  const database: EmbeddedDatabase = await resolveDatabaseUrl(process.env, (line) =>
    bootLog.info({ context: 'Database' }, line),
  );
  process.env.DATABASE_URL = database.url;
  const config = loadAppConfig();
  let app: NestExpressApplication | undefined;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule.register(), new EdgeExpressAdapter(), {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false, // a failed start stops the embedded database and exits 1 (below), not abort()
    });
    const logger = app.get(PinoNestLogger);
    app.useLogger(logger);
    configureApp(app, config);
    // In the same tick, so that no signal falls between the two handlers.
    process.off('SIGTERM', holdSignal);
    process.off('SIGINT', holdSignal);
    installGracefulShutdown(app, {
      graceMs: config.shutdownGraceMs,
      logger,
      afterClose: () => database.stop(),
      exit: (code) => process.exit(code),
    });
    await app.listen(config.port);
    compactHeapSoon();
    announceStarted();
    new Logger('Main').log(`Petstore API listening on http://localhost:${config.port} (docs at /docs)`);
    if (heldSignal) process.kill(process.pid, heldSignal);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.stop();
    throw error;
  }
  // Re-read the plan table (it is also re-read when the file changes); counters are kept.
  process.on('SIGHUP', () => app?.get(PlanTableService).reload('SIGHUP'));
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof PlanConfigError) {
    bootLog.fatal(`Invalid configuration: ${error.message}`);
  } else {
    bootLog.fatal({ err: error }, 'Start-up failed');
  }
  process.exit(1);
});
