import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { RateLimitHealth } from '@petstore/rate-limit';
import { Redis } from 'ioredis';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { CaptureLogger } from './support/capture-logger.js';
import { errorShapeProblem, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Redis (the shared rate-limit counters) goes away and comes back while requests
 * flow: the service keeps serving (fail open, API.md section 5 and
 * docs/rate-limits.md), never answers 5xx to API calls, reports itself not ready
 * meanwhile, and counts in Redis again once it is back. Uses a private
 * redis-server on a free port, started and killed by the test; skipped on a
 * machine without redis-server.
 */
const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;
const describeWithRedis = HAS_REDIS_SERVER ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await sleep(25);
  }
  return Date.now() - started;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface Outcome {
  readonly kind: 'api' | 'ready';
  readonly start: number;
  readonly end: number;
  readonly status: number;
  readonly message?: string;
  readonly problem: string | null;
}

describeWithRedis('Redis outage under load (e2e)', () => {
  const prefix = `redis-outage:${randomUUID()}:`;
  let port: number;
  let server: ChildProcess | undefined;
  let t: TestApp;
  let health: RateLimitHealth;

  const startRedis = async () => {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50 });
    await eventually(async () => {
      try {
        if (probe.status !== 'ready') await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      }
    });
    probe.disconnect();
  };
  const killRedis = async () => {
    const stopping = server;
    server = undefined;
    if (!stopping || stopping.exitCode !== null) return;
    await new Promise((resolve) => {
      stopping.once('exit', resolve);
      stopping.kill('SIGKILL');
    });
  };

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    t = await createTestApp(
      { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_REDIS_PREFIX: prefix },
      { logger: new CaptureLogger() },
    );
    await t.reset();
    health = t.app.get(RateLimitHealth);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await killRedis();
  });

  it('serves every API request while Redis is away, is not ready meanwhile, and counts in Redis again once back', async () => {
    const key = await t.key(['read'], 'enterprise');
    const outcomes: Outcome[] = [];
    let running = true;
    const worker = async (kind: Outcome['kind']) => {
      while (running) {
        const start = Date.now();
        const res =
          kind === 'api'
            ? await request(t.http).get('/categories').set(KEY, key)
            : await request(t.http).get('/health/ready');
        outcomes.push({
          kind,
          start,
          end: Date.now(),
          status: res.status,
          message: (res.body as { message?: string }).message,
          problem: res.status >= 400 ? errorShapeProblem(res) : null,
        });
        if (kind === 'ready') await sleep(20);
      }
    };
    const workers = [worker('api'), worker('api'), worker('api'), worker('api'), worker('ready')];

    await sleep(300);
    const downAt = Date.now();
    await killRedis();
    const noticedMs = await eventually(() => !health.isHealthy());
    await sleep(2_000);
    const backAt = Date.now();
    await startRedis();
    const reconnectedMs = await eventually(() => health.isHealthy(), 20_000);
    await sleep(500);
    running = false;
    await Promise.all(workers);

    const api = outcomes.filter((o) => o.kind === 'api');
    const ready = outcomes.filter((o) => o.kind === 'ready');
    const notReady = ready.filter((o) => o.status === 503);
    console.log(
      `[redis-outage] apiRequests=${api.length} api5xx=${api.filter((o) => o.status >= 500).length} ` +
        `apiStatuses=${JSON.stringify(Object.fromEntries([...new Set(api.map((o) => o.status))].map((s) => [s, api.filter((o) => o.status === s).length])))} ` +
        `outageNoticedMs=${noticedMs} reconnectedMs=${reconnectedMs} readyProbes=${ready.length} ready503=${notReady.length}`,
    );

    expect(api.length).toBeGreaterThan(20);
    expect(api.filter((o) => o.status !== 200)).toEqual([]);
    expect(outcomes.filter((o) => o.problem !== null)).toEqual([]);
    expect(notReady.length).toBeGreaterThan(0);
    for (const o of notReady) {
      expect(o.message).toBe('Not ready: redis (not answering)');
      expect(o.end).toBeGreaterThanOrEqual(downAt);
    }
    expect(ready.filter((o) => o.end < downAt).every((o) => o.status === 200)).toBe(true);
    expect(ready.at(-1)?.status).toBe(200);
    expect(backAt).toBeGreaterThan(downAt);
  }, 60_000);

  it('applies the limits in Redis again: a key gets exactly its quota, counted under the shared prefix', async () => {
    const tight = await t.app.get(ApiKeysService).create({
      name: 'tight',
      plan: 'enterprise',
      scopes: ['read'],
      limits: { perMinute: 5, perDay: 100 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await request(t.http).get('/categories').set(KEY, tight.secret)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const redis = new Redis(port, '127.0.0.1');
    try {
      const counters = await redis.keys(`${prefix}{k${tight.key.id}.*}:w60000`);
      expect(counters).toHaveLength(1);
      expect(await redis.get(counters[0])).toBe('5');
    } finally {
      redis.disconnect();
    }
  });
});
