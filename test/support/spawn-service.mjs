// Running the built service as a real process, for the scripts and tests that need
// one (bench/ratelimit.mjs, test/multi-instance/exactness.mjs, test/shutdown.e2e-spec.ts):
// a free port, the process with its output collected, waiting until it serves, and
// the scratch database and Redis keys around it. Plain ESM so `node` runs the
// scripts without a build step; the types are in spawn-service.d.mts.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startFlags } from './start-flags.mjs';

/** The built entry point, as `npm start` runs it: PETSTORE_ENTRY, else the bundle dist/petstore.cjs. */
export const ENTRY = resolve(process.env.PETSTORE_ENTRY ?? 'dist/petstore.cjs');

/** A TCP port of 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts `node <entry>` as `npm start` does (its flags: `startFlags`) listening on `port`, with `env` over the current
 * environment (a variable set to undefined is left out), and collects what it
 * writes to stdout and stderr.
 */
export function spawnService({ name, port, env = {}, entry = ENTRY }) {
  const child = spawn(process.execPath, [...startFlags(entry), entry], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  return { name, port, base: `http://127.0.0.1:${port}`, child, exited, output: () => output };
}

/**
 * Asks `isReady` every `intervalMs`, at most `attempts` times, until it answers
 * true (a rejection counts as "not listening yet"); throws with the service's
 * output when the process exits first or the attempts run out.
 */
export async function waitUntilReady(service, isReady, { attempts = 120, intervalMs = 500 } = {}) {
  for (let i = 0; i < attempts; i++) {
    if (service.child.exitCode !== null) break;
    try {
      if (await isReady()) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`${service.name} did not start:\n${service.output()}`);
}

/**
 * `spawnService` on a free port, waiting (every 100 ms, 12 s at most) until
 * `GET /health/ready` answers 200; the process is killed if it does not get there.
 */
export async function startUntilReady({ name = 'the service', entry = ENTRY, env = {} } = {}) {
  const service = spawnService({ name, port: await freePort(), entry, env });
  try {
    await waitUntilReady(service, async () => (await globalThis.fetch(`${service.base}/health/ready`)).status === 200, {
      attempts: 120,
      intervalMs: 100,
    });
  } catch (error) {
    service.child.kill('SIGKILL');
    throw error;
  }
  return service;
}

/** Drops and re-creates the database `databaseUrl` names (connecting to `postgres` on the same server). */
export async function recreateDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name '${name}'`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

/** Removes the keys under `prefix` from the Redis at `redisUrl`; nothing to do when it is unreachable. */
export async function deleteRedisKeys(redisUrl, prefix) {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } catch {
    // Redis unreachable: nothing to clean
  }
  redis.disconnect();
}
