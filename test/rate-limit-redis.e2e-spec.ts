import { SYSTEM } from '../src/audit/index.js';
import { randomUUID } from 'node:crypto';
import { RateLimitHealth } from '@petstore/rate-limit';
import { Redis } from 'ioredis';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { eventually } from './support/eventually.js';
import { PrivateRedisServer } from './support/redis-server.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * What only Redis shows: counters shared by several instances, the key layout
 * (one hash slot per client), the script cache being flushed, and Redis going
 * away and coming back. Runs when REDIS_URL is set (CI), skipped otherwise.
 */
const REDIS_URL = process.env.REDIS_URL;
const describeRedis = REDIS_URL ? describe : describe.skip;

const PLANS = `plans:
  free: { perMinute: 60, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
`;

function plansFile(): string {
  return temporaryPlansFile(PLANS);
}

describeRedis('rate limits on Redis: shared counters (e2e)', () => {
  const prefix = `rl-e2e-redis:${randomUUID()}:`;
  let redis: Redis;
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  let keys: ApiKeysService;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL as string);
    const env = { REDIS_URL: REDIS_URL as string, RATE_LIMIT_REDIS_PREFIX: prefix, PLANS_FILE: plansFile() };
    a = await createTestApp(env);
    b = await createTestApp(env);
    await a.reset();
    keys = a.app.get(ApiKeysService);
    admin = await a.key(['read', 'write', 'admin'], 'enterprise', { perMinute: 10_000, perDay: 100_000 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const leftovers = await redis.keys(`${prefix}*`);
    if (leftovers.length > 0) await redis.del(...leftovers);
    await redis.quit();
  });

  it('is connected to Redis when the app starts serving', () => {
    expect(a.app.get(RateLimitHealth).status()).toEqual({ storage: 'redis', healthy: true });
    expect(b.app.get(RateLimitHealth).isHealthy()).toBe(true);
  });

  it('two instances together allow exactly the plan limit: 100 concurrent requests, 60 succeed', async () => {
    const key = await a.key(['read']);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        request(i % 2 === 0 ? a.http : b.http)
          .get('/categories')
          .set('X-API-Key', key),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBe(60);
    expect(results.filter((r) => r.status === 429).length).toBe(40);
    expect(new Set(ok.map((r) => r.headers['x-ratelimit-remaining'])).size).toBe(60);
  });

  it("keeps one client's keys under one hash tag (one cluster slot), with the windows as TTLs", async () => {
    const enterprise = await keys.create(
      {
        name: 'layout',
        plan: 'enterprise',
        scopes: ['read'],
        limits: { perMinute: 1, perDay: 10 },
      },
      SYSTEM,
    );
    await request(a.http).get('/categories').set('X-API-Key', enterprise.secret).expect(200);
    await request(b.http).get('/categories').set('X-API-Key', enterprise.secret).expect(429);
    const tag = `k${enterprise.key.id}.${enterprise.key.createdAt.getTime().toString(36)}`;
    const found = (await redis.keys(`${prefix}*${tag}*`)).sort();
    expect(found).toEqual([`${prefix}{${tag}}:rej`, `${prefix}{${tag}}:w60000`, `${prefix}{${tag}}:w86400000`].sort());
    const minuteTtl = await redis.pttl(`${prefix}{${tag}}:w60000`);
    const dayTtl = await redis.pttl(`${prefix}{${tag}}:w86400000`);
    expect(minuteTtl).toBeGreaterThan(55_000);
    expect(minuteTtl).toBeLessThanOrEqual(60_000);
    expect(dayTtl).toBeGreaterThan(86_300_000);
    expect([await redis.get(`${prefix}{${tag}}:w60000`), await redis.get(`${prefix}{${tag}}:rej`)]).toEqual(['1', '1']);
  });

  it('shares bans: banned through one instance, refused by the other, lifted through either', async () => {
    const enterprise = await keys.create(
      {
        name: 'ban',
        plan: 'enterprise',
        scopes: ['read'],
        limits: { perMinute: 1, perDay: 100 },
      },
      SYSTEM,
    );
    const send = (app: TestApp) => request(app.http).get('/categories').set('X-API-Key', enterprise.secret);
    await send(a).expect(200);
    // 3 × 1 rejections are tolerated, the fourth bans.
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await send(i % 2 ? a : b)).body.code);
    expect(codes).toEqual(['RATE_LIMIT_EXCEEDED', 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT_EXCEEDED', 'API_KEY_BANNED']);
    expect((await send(b)).body.code).toBe('API_KEY_BANNED');
    await request(a.http).post(`/admin/api-keys/${enterprise.key.id}/unban`).set('X-API-Key', admin).expect(204);
    expect((await send(b)).body.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('reloads its script when Redis has forgotten it (SCRIPT FLUSH, restart), without losing a count', async () => {
    const key = await a.key(['read']);
    await request(a.http).get('/categories').set('X-API-Key', key).expect(200);
    await redis.script('FLUSH');
    const res = await request(b.http).get('/categories').set('X-API-Key', key).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('58');
    expect(b.app.get(RateLimitHealth).isHealthy()).toBe(true);
  });

  it('answers a script it does not hold with a NOSCRIPT reply, whose first word is the only mark of it (no code)', async () => {
    const error = await redis.evalsha('0'.repeat(40), 0).then(
      () => null,
      (e: unknown) => e as Error & { code?: unknown },
    );
    expect(error?.message).toMatch(/^NOSCRIPT /);
    expect(error?.code).toBeUndefined();
  });
});

describeRedis('rate limits when Redis goes away and comes back (e2e)', () => {
  let redisServer: PrivateRedisServer;
  let t: TestApp;

  beforeAll(async () => {
    redisServer = await PrivateRedisServer.onFreePort();
    await redisServer.start();
    t = await createTestApp({ REDIS_URL: redisServer.url, PLANS_FILE: plansFile() });
    await t.reset();
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await redisServer?.kill();
  });

  it('serves on (fail open) with the headers, reports unhealthy, and recovers when Redis is back', async () => {
    const health = t.app.get(RateLimitHealth);
    const key = await t.key(['read']);
    const before = await request(t.http).get('/categories').set('X-API-Key', key).expect(200);
    expect(before.headers['x-ratelimit-remaining']).toBe('59');
    expect(health.isHealthy()).toBe(true);

    await redisServer.kill();
    await eventually(() => !health.isHealthy());
    const during = await request(t.http).get('/categories').set('X-API-Key', key).expect(200);
    expect(during.headers['x-ratelimit-limit']).toBe('60');
    expect(during.body).toEqual(expect.any(Array));

    await redisServer.start();
    await eventually(() => health.isHealthy(), 20_000);
    // A fresh Redis: the count starts again there (the outage was counted locally).
    const after = await request(t.http).get('/categories').set('X-API-Key', key).expect(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('59');
  }, 60_000);
});
