import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadPlanTable, PlanConfigError, PlanTableService } from '@petstore/rate-limit';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { ConfigError, loadAppConfig } from './config/app.config.js';
import { resolveDatabaseUrl } from './database/database-url.js';
import type { EmbeddedDatabase } from './database/embedded-postgres.js';

const logger = new Logger('Main');

async function bootstrap(): Promise<void> {
  const { rateLimit } = loadAppConfig(); // fail fast on bad configuration, before starting a database
  loadPlanTable({
    file: rateLimit.plansFile,
    required: rateLimit.plansFileRequired,
    overrides: rateLimit.planOverrides,
  });
  const database: EmbeddedDatabase = await resolveDatabaseUrl(process.env, (line) => logger.log(line));
  process.env.DATABASE_URL = database.url;
  const config = loadAppConfig();
  let app: NestExpressApplication | undefined;
  try {
    app = await NestFactory.create<NestExpressApplication>(AppModule, { bodyParser: false });
    configureApp(app, config);
    await app.listen(config.port);
    logger.log(`Petstore API listening on http://localhost:${config.port} (docs at /docs)`);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.stop();
    throw error;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: closing`);
    await app?.close();
    await database.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Re-read the plan table (it is also re-read when the file changes); counters are kept.
  process.on('SIGHUP', () => app?.get(PlanTableService).reload('SIGHUP'));
}

bootstrap().catch((error: unknown) => {
  const invalid = error instanceof ConfigError || error instanceof PlanConfigError;
  logger.error(invalid ? `Invalid configuration: ${error.message}` : error);
  process.exit(1);
});
