import { loadPlanTable } from '../rate-limits/plans-file.js';
import { type AppConfig, loadAppConfig } from './app.config.js';

/**
 * Everything checked before anything is started (database, connections): the
 * environment and the plan table. A bad value throws an error naming it.
 */
export function checkStartupConfig(env: Readonly<Record<string, string | undefined>> = process.env): AppConfig {
  const config = loadAppConfig(env);
  const { rateLimit } = config;
  loadPlanTable({
    file: rateLimit.plansFile,
    required: rateLimit.plansFileRequired,
    overrides: rateLimit.planOverrides,
  });
  return config;
}
