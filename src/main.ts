import 'reflect-metadata';
import { ConfigError, LOG_LEVELS, loadAppConfig } from './config/app.config.js';
import { checkStartupConfig } from './config/startup-config.js';
import { startDatabase } from './database/database-url.js';
import { createRootLogger } from './logging/root-logger.js';
import { compileCacheOutcome } from './platform/compile-cache.js';
import { PlanConfigError } from './rate-limits/plans-file.js';

// Only what the configuration check and the database's start need is imported here: the
// application (./application.js, most of a start's CPU time) is loaded while PostgreSQL starts.

/** Logs what happens before the application (and its logger) exists, in the same format. */
const bootLog = createRootLogger(
  LOG_LEVELS.find((level) => level === process.env.LOG_LEVEL?.trim().toLowerCase()) ?? 'info',
);

/** Set by the entry (src/start.ts) when it started this process; not when main.js is run directly. */
const compileCache = compileCacheOutcome();
if (compileCache) {
  bootLog.debug(
    { context: 'CompileCache' },
    compileCache.enabled
      ? `Node compile cache in ${compileCache.detail}`
      : `Node compile cache off: ${compileCache.detail}`,
  );
}

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
  const starting = startDatabase(process.env, (line) => bootLog.info({ context: 'Database' }, line));
  await starting.running; // the embedded server's own programs at work: the two start side by side from here
  const application = import('./application.js');
  application.catch(() => undefined); // awaited below, once the database is ready (or has failed)
  const database = await starting.ready;
  try {
    process.env.DATABASE_URL = database.url;
    const { startApplication } = await application;
    await startApplication(database, loadAppConfig(), {
      release: () => {
        process.off('SIGTERM', holdSignal);
        process.off('SIGINT', holdSignal);
      },
      held: () => heldSignal,
    });
  } catch (error) {
    await database.stop();
    throw error;
  }
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof PlanConfigError) {
    bootLog.fatal(`Invalid configuration: ${error.message}`);
  } else {
    bootLog.fatal({ err: error }, 'Start-up failed');
  }
  process.exit(1);
});
