import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';

/**
 * `DATABASE_URL` when set; otherwise the embedded PostgreSQL under `$DATA_DIR`,
 * started now (or found already running) and stopped by the returned handle.
 */
export async function resolveDatabaseUrl(
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void = (line) => console.log(line),
): Promise<EmbeddedDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => undefined };
  return startEmbeddedPostgres(env.DATA_DIR || './data', log);
}
