import { loadPlanTable } from '../rate-limits/plans-file.js';
import { type AppConfig, ConfigError, loadAppConfig } from './app.config.js';

/**
 * Everything checked before anything is started (database, connections): the
 * environment and the plan table. A bad value throws an error naming it.
 */
export function checkStartupConfig(env: Readonly<Record<string, string | undefined>> = process.env): AppConfig {
  const config = loadAppConfig(env);
  requireSharedSecretKey(config);
  const { rateLimit } = config;
  loadPlanTable({
    file: rateLimit.plansFile,
    required: rateLimit.plansFileRequired,
    overrides: rateLimit.planOverrides,
  });
  return config;
}

/**
 * On a database of its own (no DATABASE_URL) an instance may keep the key sealing the
 * webhook secrets in a file of its DATA_DIR. On a DATABASE_URL, other instances may
 * share the database, and each would make a key of its own, sealing secrets the others
 * cannot open: the key must come from the environment, the same for all of them.
 * Checked here, on the environment as given, because main.ts sets DATABASE_URL to the
 * embedded server's once that is started.
 */
function requireSharedSecretKey(config: AppConfig): void {
  if (config.databaseUrl !== undefined && config.webhooks.secretKey === undefined)
    throw new ConfigError(
      'WEBHOOKS_SECRET_KEY must be set when DATABASE_URL is (the base64 of 32 random bytes, e.g. `openssl rand -base64 32`, ' +
        'the same for every instance of the database): instances that each made a key file would seal webhook secrets ' +
        'that the others cannot open',
    );
}
