import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/api-keys/application/api-keys.service.js';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { loadAppConfig } from '../../src/config/app.config.js';
import type { Scope } from '@petstore/auth';
import type { PlanName } from '@petstore/rate-limit';

export interface TestApp {
  readonly app: NestExpressApplication;
  /** The express server, for supertest. */
  readonly http: ReturnType<NestExpressApplication['getHttpServer']>;
  readonly db: DataSource;
  /** Issues a key through the real use case and returns its secret. */
  key(scopes?: Scope[], plan?: PlanName): Promise<string>;
  /** Empties every table, so each test file starts from a known state. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real AppModule, configured exactly as `main.ts` does, on the test database.
 * `env` overrides configuration for this app only (e.g. a past sunset date).
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const saved = { ...process.env };
  Object.assign(process.env, { SEED_DEMO_DATA: 'false', ...env });
  try {
    const app = await NestFactory.create<NestExpressApplication>(AppModule, {
      bodyParser: false,
      logger: ['error', 'fatal'],
    });
    configureApp(app, loadAppConfig());
    await app.init();
    const db = app.get(DataSource);
    const keys = app.get(ApiKeysService);
    return {
      app,
      http: app.getHttpServer(),
      db,
      key: async (scopes = ['read', 'write', 'admin'], plan = 'free') =>
        (await keys.create({ name: `test ${scopes.join('+')}`, plan, scopes })).secret,
      reset: async () => {
        await db.query('TRUNCATE pets, categories, api_keys RESTART IDENTITY CASCADE');
      },
      close: () => app.close(),
    };
  } finally {
    process.env = saved;
  }
}
