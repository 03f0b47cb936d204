import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { alive, postmasterPid } from './support/processes.js';
import {
  deleteRedisKeys,
  freePort,
  type ServiceProcess,
  spawnService,
  waitUntilReady,
} from './support/spawn-service.mjs';

/**
 * The real start path and graceful shutdown of the real process (`node dist/petstore.cjs`,
 * built by `npm test`'s pretest), started as `npm start` starts it (demo catalogue on):
 * it serves its probes, refuses a request without a key, lists the demo pets to the
 * bootstrap key and counts that request in /metrics. Then, under steady load, it gets
 * SIGTERM. Every request sent before the signal must succeed; the process must stop
 * accepting, finish what is in flight, close the pool (and Redis when REDIS_URL is set),
 * stop its embedded PostgreSQL (process and pid file gone) and exit 0. The service runs on an embedded PostgreSQL of its own in
 * a temporary directory or, when SHUTDOWN_TEST_PG_SERVER names a PostgreSQL server
 * (a connection URL; CI: the machine's), on a database the test creates there and
 * drops afterwards.
 */
const ENTRY = resolve('dist/petstore.cjs');
const PG_SERVER = process.env.SHUTDOWN_TEST_PG_SERVER || undefined;
const WORKERS = 16;
const LOAD_BEFORE_SIGNAL_MS = 1_500;

interface Sent {
  readonly path: string;
  readonly start: number;
  end?: number;
  status?: number;
  error?: string;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

/** Runs `sql` on the server's `postgres` database. */
async function onServer(server: string, sql: string): Promise<void> {
  const url = new URL(server);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('the start path and graceful shutdown under load (e2e)', () => {
  const database = `petstore_shutdown_${randomBytes(4).toString('hex')}`;
  let service: ServiceProcess | undefined;
  let dir: string;
  let databaseUrl: string | undefined;

  beforeAll(async () => {
    if (!PG_SERVER) return;
    await onServer(PG_SERVER, `CREATE DATABASE ${database}`);
    const url = new URL(PG_SERVER);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  });

  afterAll(async () => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (PG_SERVER) await onServer(PG_SERVER, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('answers as `npm start` does, finishes every request sent before SIGTERM, stops its database and exits 0', async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
    dir = mkdtempSync(join(tmpdir(), 'petstore-shutdown-'));
    chmodSync(dir, 0o755); // under root, the embedded server runs as 'postgres' and must reach its directory
    const port = await freePort();
    const adminKey = `psk_shutdown_${randomBytes(16).toString('hex')}`;
    const redisPrefix = `shutdown-test:${randomUUID()}:`;
    const server = spawnService({
      name: 'the service',
      port,
      entry: ENTRY,
      env: {
        NODE_OPTIONS: undefined, // not Jest's --experimental-vm-modules
        DATABASE_URL: databaseUrl,
        DATA_DIR: join(dir, 'data'),
        // Required with a DATABASE_URL; the embedded start keeps its key file in DATA_DIR.
        WEBHOOKS_SECRET_KEY: databaseUrl ? randomBytes(32).toString('base64') : undefined,
        BOOTSTRAP_ADMIN_KEY: adminKey,
        SEED_DEMO_DATA: undefined, // the default start: the demo catalogue is loaded
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '10000',
        RATE_LIMIT_REDIS_PREFIX: redisPrefix,
      },
    });
    service = server;

    const agent = new Agent({ keepAlive: true, maxSockets: WORKERS });
    const auth = { 'X-API-Key': adminKey };
    try {
      // Ready: PostgreSQL (embedded: initialised and started), migrations, Redis.
      await waitUntilReady(server, async () => (await send(agent, port, 'GET', '/health/ready', {})).status === 200, {
        attempts: 240,
        intervalMs: 250,
      });
      const postmaster = databaseUrl ? null : postmasterPid(dir);
      if (!databaseUrl) expect(postmaster).not.toBeNull();

      // The start path answers as a client first sees it.
      expect((await send(agent, port, 'GET', '/health/live', {})).status).toBe(200);
      expect((await send(agent, port, 'GET', '/pets', {})).status).toBe(401);
      const demo = await send(agent, port, 'GET', '/pets', auth);
      expect(demo.status).toBe(200);
      expect((JSON.parse(demo.body) as unknown[]).length).toBeGreaterThan(0); // the demo catalogue
      const metrics = await send(agent, port, 'GET', '/metrics', auth);
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(
        /^http_request_duration_seconds_count\{method="GET",route="\/pets",status="200"\} 1$/m,
      );

      const category = JSON.parse((await send(agent, port, 'POST', '/categories', auth, { name: 'Shutdown' })).body);
      const pet = JSON.parse(
        (await send(agent, port, 'POST', '/pets', auth, { name: 'Steady', categoryId: category.id })).body,
      );
      await send(agent, port, 'PUT', `/store/inventory/${pet.id}`, auth, { quantity: 1_000_000 });

      const sent: Sent[] = [];
      let signalAt = Number.POSITIVE_INFINITY;
      let stop = false;
      const calls: Array<[string, string, unknown]> = [
        ['POST', '/store/orders', { petId: pet.id, quantity: 1 }],
        ['GET', '/pets?limit=50', undefined],
        ['GET', `/store/inventory/${pet.id}`, undefined],
        ['GET', '/store/orders?limit=20', undefined],
      ];
      const worker = async (n: number) => {
        for (let i = n; !stop; i++) {
          const [method, path, body] = calls[i % calls.length];
          const entry: Sent = { path: `${method} ${path}`, start: Date.now() };
          sent.push(entry);
          try {
            entry.status = (await send(agent, port, method, path, auth, body)).status;
          } catch (error) {
            entry.error = (error as NodeJS.ErrnoException).code ?? String(error);
            // After the signal, refusals are expected: this worker is done.
            if (entry.start >= signalAt) return;
          } finally {
            entry.end = Date.now();
          }
        }
      };
      const workers = Array.from({ length: WORKERS }, (_, n) => worker(n));

      await sleep(LOAD_BEFORE_SIGNAL_MS);
      signalAt = Date.now();
      const inFlightAtSignal = sent.filter((s) => s.end === undefined).length;
      server.child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const exit = await Promise.race([
        server.exited,
        new Promise<null>((done) => (timer = setTimeout(done, 30_000, null))),
      ]);
      clearTimeout(timer);
      stop = true;
      await Promise.all(workers);
      const stoppedMs = Date.now() - signalAt;

      const before = sent.filter((s) => s.start < signalAt);
      const failedBefore = before.filter((s) => s.error !== undefined || (s.status ?? 0) >= 500);
      const after = sent.filter((s) => s.start >= signalAt);
      const servedAfter = after.filter((s) => s.status !== undefined);
      const serverSaid =
        /(\d+) requests were in flight, (\d+) more arrived on open connections, (\d+) connections cut/.exec(
          server.output(),
        );
      console.log(
        `[shutdown] database=${databaseUrl ? 'server' : 'embedded'} requestsBeforeSignal=${before.length} inFlightAtSignal(client)=${inFlightAtSignal} ` +
          `inFlightAtSignal(server)=${serverSaid?.[1]} servedOnOpenConnectionsAfterSignal(server)=${serverSaid?.[2]} ` +
          `cutConnections=${serverSaid?.[3]} failedBeforeSignal=${failedBefore.length} ` +
          `afterSignal: sent=${after.length} served=${servedAfter.length} refused=${after.length - servedAfter.length} ` +
          `exit=${exit ? `${exit.code}/${exit.signal}` : 'still running'} stoppedMs=${stoppedMs}`,
      );

      expect(exit).toEqual({ code: 0, signal: null });
      expect(failedBefore.map((s) => `${s.path}: ${s.error ?? s.status}`)).toEqual([]);
      expect(before.length).toBeGreaterThan(WORKERS);
      expect(inFlightAtSignal).toBeGreaterThan(0);
      // Answers after the signal (on connections already open) are real answers, never 5xx.
      expect(servedAfter.filter((s) => (s.status ?? 0) >= 500)).toEqual([]);
      for (const s of after.filter((a) => a.error !== undefined)) {
        expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']).toContain(s.error);
      }
      expect(serverSaid?.[3]).toBe('0');

      // The log: one JSON object per line, the shutdown steps in order.
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.trim());
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const steps = entries.filter((e) => e.context === 'Shutdown').map((e) => String(e.msg));
      expect(steps).toEqual([
        expect.stringMatching(/^SIGTERM received: not accepting connections/),
        expect.stringMatching(/^HTTP drained in \d+ ms/),
        'Stopped',
      ]);
      const requestLines = entries.filter((e) => 'durationMs' in e);
      expect(requestLines.length).toBeGreaterThanOrEqual(before.length);
      expect(requestLines.every((e) => typeof e.reqId === 'string')).toBe(true);
      expect(server.output()).not.toContain(adminKey);

      if (!databaseUrl) {
        // The embedded PostgreSQL stopped cleanly: its process is gone, no pid file left.
        expect(alive(postmaster as number)).toBe(false);
        expect(postmasterPid(dir) ?? 'stopped').toBe('stopped');
      }
    } finally {
      agent.destroy();
      if (process.env.REDIS_URL) await deleteRedisKeys(process.env.REDIS_URL, redisPrefix);
    }
  }, 120_000);
});
