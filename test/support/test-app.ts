import { SYSTEM } from '../../src/audit/index.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DynamicModule, LoggerService, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import type { DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/api-keys/application/api-keys.service.js';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { checkStartupConfig } from '../../src/config/startup-config.js';
import {
  SERVER_TIMEOUTS,
  ServerOptionsExpressAdapter,
  type ServerTimeouts,
} from '../../src/lifecycle/server-timeouts.js';
import { LogDestination } from '../../src/logging/root-logger.js';
import type { KeyLimits, Scope } from '@petstore/auth';
import type { PlanName } from '../../src/rate-limits/plan.js';

/** Per-key quota given to enterprise test keys unless the test names one: high enough never to bind. */
export const GENEROUS_LIMITS: KeyLimits = { perMinute: 1_000_000, perDay: 100_000_000 };

export interface TestApp {
  readonly app: NestExpressApplication;
  /** The express server, for supertest. */
  readonly http: ReturnType<NestExpressApplication['getHttpServer']>;
  readonly db: DataSource;
  /**
   * Issues a key through the real use case and returns its secret. Enterprise keys
   * get `limits` (default {@link GENEROUS_LIMITS}); other plans take the plan table's.
   */
  key(scopes?: Scope[], plan?: PlanName, limits?: KeyLimits): Promise<string>;
  /** Empties every table (except the migrations log), so each test file starts from a known state. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Root module to boot instead of `AppModule.register()` (it should import that, or be `AppModule.register(extensions)`), e.g. to add a test-only controller or module. */
  readonly rootModule?: Type<unknown> | DynamicModule;
  /** Receives every log line of the app; without it only errors are printed. */
  readonly logger?: LoggerService;
  /**
   * Receives the pino log lines (request log, 5xx details), one JSON text per
   * `write`. Without it they are not written, and LOG_LEVEL defaults to silent.
   */
  readonly logStream?: DestinationStream;
  /** HTTP server timeouts instead of the production ones (short values keep slow-client tests fast). */
  readonly serverTimeouts?: Partial<ServerTimeouts>;
}

/**
 * The key sealing webhook secrets for this test file's apps (each test file loads this
 * module afresh): the test database is a DATABASE_URL, where the service requires one.
 */
const WEBHOOKS_SECRET_KEY = randomBytes(32).toString('base64');

/** Tables that describe the schema rather than hold data. */
const KEPT_TABLES = ['migrations', 'typeorm_metadata'];

/**
 * The real AppModule, configured exactly as `main.ts` does (`configureApp`), on the
 * test database. `env` overrides configuration for this app only (e.g. a past
 * sunset date). Unlike `main.ts`, Nest's own log lines go to `options.logger`
 * rather than pino, and pino writes only to `options.logStream`.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const saved = { ...process.env };
  // Each app counts under its own Redis prefix: with a shared REDIS_URL, apps of
  // other test files (and earlier CI runs) would otherwise share 127.0.0.1's quota.
  Object.assign(process.env, {
    SEED_DEMO_DATA: 'false',
    RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:`,
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    // Delivering webhooks is opt-in for a test app: a dispatcher polling the tables would
    // deadlock with reset()'s TRUNCATE, and only the webhook tests want deliveries.
    WEBHOOKS_DISPATCHER: 'false',
    WEBHOOKS_SECRET_KEY,
    ...env,
  });
  try {
    // As main.ts does: a bad configuration stops the start before any connection is opened.
    const config = checkStartupConfig();
    let builder = Test.createTestingModule({ imports: [options.rootModule ?? AppModule.register()] });
    if (options.logStream) builder = builder.overrideProvider(LogDestination).useValue(options.logStream);
    if (options.logger) builder.setLogger(options.logger);
    const moduleRef = await builder.compile();
    const adapter = new ServerOptionsExpressAdapter({ ...SERVER_TIMEOUTS, ...options.serverTimeouts });
    const app = moduleRef.createNestApplication<NestExpressApplication>(adapter, {
      bodyParser: false,
      logger: options.logger ?? ['error', 'fatal'],
    });
    configureApp(app, config);
    await app.init();
    const db = app.get(DataSource);
    const keys = app.get(ApiKeysService);
    return {
      app,
      http: app.getHttpServer(),
      db,
      key: async (scopes = ['read', 'write', 'admin'], plan = 'free', limits) => {
        const own = plan === 'enterprise' ? (limits ?? GENEROUS_LIMITS) : limits;
        return (await keys.create({ name: `test ${scopes.join('+')}`, plan, scopes, limits: own }, SYSTEM)).secret;
      },
      reset: async () => {
        const rows: Array<{ tablename: string }> = await db.query(
          `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> ALL($1)`,
          [KEPT_TABLES],
        );
        if (rows.length === 0) return;
        const tables = rows.map(({ tablename }) => `"${tablename.replace(/"/g, '""')}"`).join(', ');
        // A test's own dispatcher may hold a row lock the TRUNCATE waits for: PostgreSQL then
        // picks one of the two as a deadlock victim; try again.
        for (let attempt = 1; ; attempt++) {
          try {
            await db.query(`TRUNCATE ${tables} RESTART IDENTITY CASCADE`);
            return;
          } catch (error) {
            if (attempt >= 5 || (error as { code?: string }).code !== '40P01') throw error;
          }
        }
      },
      close: () => app.close(),
    };
  } finally {
    process.env = saved;
  }
}
