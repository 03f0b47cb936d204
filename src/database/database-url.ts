import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres.js';

/** A database being made ready: `running` settles when only PostgreSQL's own work is left (see `startDatabase`). */
export interface DatabaseStart {
  readonly running: Promise<void>;
  readonly ready: Promise<EmbeddedDatabase>;
}

/**
 * `resolveDatabaseUrl`, told when the rest of the start can go on beside it:
 * `running` settles once the embedded server's initdb or postmaster is at work in
 * its own process (at once with `DATABASE_URL`), so that the caller can spend
 * that time on its own work (main.ts evaluates the application's modules).
 * `ready` is handled from the start: its failure surfaces where it is awaited.
 */
export function startDatabase(
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): DatabaseStart {
  if (env.DATABASE_URL) {
    const external: EmbeddedDatabase = { url: env.DATABASE_URL, stop: () => Promise.resolve() };
    return { running: Promise.resolve(), ready: Promise.resolve(external) };
  }
  let ran: () => void = () => undefined;
  const running = new Promise<void>((done) => (ran = done));
  const ready = startEmbeddedPostgres(env.DATA_DIR || './data', log, () => ran(), env);
  ready.catch(() => undefined);
  return { running, ready };
}

/**
 * `DATABASE_URL` when set; otherwise the embedded PostgreSQL under `$DATA_DIR`,
 * started now (or found already running) and stopped by the returned handle.
 */
export function resolveDatabaseUrl(
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void = (line) => console.log(line),
): Promise<EmbeddedDatabase> {
  return startDatabase(env, log).ready;
}
