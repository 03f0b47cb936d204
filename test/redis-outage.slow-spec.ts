import { SYSTEM } from '../src/audit/index.js';
import { randomUUID } from 'node:crypto';
import { RateLimitHealth } from '@petstore/rate-limit';
import { Redis } from 'ioredis';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { CaptureLogger } from './support/capture-logger.js';
import { eventually } from './support/eventually.js';
import { errorShapeProblem, KEY } from './support/http.js';
import { HAS_REDIS_SERVER, PrivateRedisServer } from './support/redis-server.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Redis (the shared rate-limit counters) goes away and comes back while requests
 * flow: the service keeps serving (fail open, API.md section 5 and
 * docs/rate-limits.md), never answers 5xx to API calls, stays ready (200, naming
 * Redis as degraded) meanwhile, since it can serve, and counts in Redis again once
 * it is back. With the limiter failing closed it refuses with 503 and is not ready. Uses a private
 * redis-server on a free port, started and killed by the test; skipped on a
 * machine without redis-server.
 */
const describeWithRedis = HAS_REDIS_SERVER ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  readonly kind: 'api' | 'ready';
  readonly start: number;
  readonly end: number;
  readonly status: number;
  readonly message?: string;
  readonly degraded?: string[];
  readonly problem: string | null;
}

describeWithRedis('Redis outage under load (e2e)', () => {
  const prefix = `redis-outage:${randomUUID()}:`;
  let redisServer: PrivateRedisServer;
  let t: TestApp;
  let health: RateLimitHealth;

  beforeAll(async () => {
    redisServer = await PrivateRedisServer.onFreePort();
    await redisServer.start();
    t = await createTestApp(
      { REDIS_URL: redisServer.url, RATE_LIMIT_REDIS_PREFIX: prefix },
      { logger: new CaptureLogger() },
    );
    await t.reset();
    health = t.app.get(RateLimitHealth);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await redisServer?.kill();
  });

  it('serves every API request while Redis is away, stays ready naming it degraded, and counts in Redis again once back', async () => {
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
          degraded: (res.body as { degraded?: string[] }).degraded,
          problem: res.status >= 400 ? errorShapeProblem(res) : null,
        });
        if (kind === 'ready') await sleep(20);
      }
    };
    const workers = [worker('api'), worker('api'), worker('api'), worker('api'), worker('ready')];

    await sleep(300);
    const downAt = Date.now();
    await redisServer.kill();
    const noticedMs = await eventually(() => !health.isHealthy());
    await sleep(2_000);
    const backAt = Date.now();
    await redisServer.start();
    const reconnectedMs = await eventually(() => health.isHealthy(), 20_000);
    await sleep(500);
    running = false;
    await Promise.all(workers);

    const api = outcomes.filter((o) => o.kind === 'api');
    const ready = outcomes.filter((o) => o.kind === 'ready');
    const degraded = ready.filter((o) => o.degraded !== undefined);
    console.log(
      `[redis-outage] apiRequests=${api.length} api5xx=${api.filter((o) => o.status >= 500).length} ` +
        `apiStatuses=${JSON.stringify(Object.fromEntries([...new Set(api.map((o) => o.status))].map((s) => [s, api.filter((o) => o.status === s).length])))} ` +
        `outageNoticedMs=${noticedMs} reconnectedMs=${reconnectedMs} readyProbes=${ready.length} readyDegraded=${degraded.length}`,
    );

    expect(api.length).toBeGreaterThan(20);
    expect(api.filter((o) => o.status !== 200)).toEqual([]);
    expect(outcomes.filter((o) => o.problem !== null)).toEqual([]);
    // Ready throughout (it serves), naming Redis as degraded while it is away.
    expect(ready.filter((o) => o.status !== 200)).toEqual([]);
    expect(degraded.length).toBeGreaterThan(0);
    for (const o of degraded) {
      expect(o.degraded).toEqual(['redis']);
      expect(o.end).toBeGreaterThanOrEqual(downAt);
    }
    expect(ready.filter((o) => o.end < downAt).every((o) => o.degraded === undefined)).toBe(true);
    expect(ready.at(-1)?.degraded).toBeUndefined();
    expect(backAt).toBeGreaterThan(downAt);
  }, 60_000);

  it('applies the limits in Redis again: a key gets exactly its quota, counted under the shared prefix', async () => {
    const tight = await t.app.get(ApiKeysService).create(
      {
        name: 'tight',
        plan: 'enterprise',
        scopes: ['read'],
        limits: { perMinute: 5, perDay: 100 },
      },
      SYSTEM,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await request(t.http).get('/categories').set(KEY, tight.secret)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const redis = new Redis(redisServer.port, '127.0.0.1');
    try {
      const counters = await redis.keys(`${prefix}{k${tight.key.id}.*}:w60000`);
      expect(counters).toHaveLength(1);
      expect(await redis.get(counters[0])).toBe('5');
    } finally {
      redis.disconnect();
    }
  });
});

describeWithRedis('Redis outage with the limiter failing closed (e2e)', () => {
  let redisServer: PrivateRedisServer;
  let t: TestApp;

  beforeAll(async () => {
    redisServer = await PrivateRedisServer.onFreePort();
    await redisServer.start();
    t = await createTestApp(
      {
        REDIS_URL: redisServer.url,
        RATE_LIMIT_REDIS_PREFIX: `redis-closed:${randomUUID()}:`,
        RATE_LIMIT_FAIL_OPEN: 'false',
      },
      { logger: new CaptureLogger() },
    );
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await redisServer?.kill();
  });

  it('is not ready and refuses API calls with 503 while Redis is away, and recovers once it is back', async () => {
    const key = await t.key(['read'], 'enterprise');
    await request(t.http).get('/health/ready').expect(200);
    await redisServer.kill();
    const health = t.app.get(RateLimitHealth);
    await eventually(async () => (await request(t.http).get('/health/ready')).status === 503, 10_000);
    const ready = await request(t.http).get('/health/ready');
    expect(ready.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Not ready: redis (not answering)',
      status: 503,
    });
    const api = await request(t.http).get('/categories').set(KEY, key);
    expect(api.status).toBe(503);
    expect(errorShapeProblem(api)).toBeNull();
    await request(t.http).get('/health/live').expect(200); // liveness asks no dependency
    await redisServer.start();
    await eventually(() => health.isHealthy(), 20_000);
    await eventually(async () => (await request(t.http).get('/health/ready')).status === 200, 10_000);
    await request(t.http).get('/categories').set(KEY, key).expect(200);
  }, 60_000);
});
