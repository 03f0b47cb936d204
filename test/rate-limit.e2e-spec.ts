import { SYSTEM } from '../src/audit/index.js';
import { writeFileSync } from 'node:fs';
import { RateLimitHealth } from '@petstore/rate-limit';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { PlanTableService } from '../src/rate-limits/plan-table.js';
import { eventually } from './support/eventually.js';
import { rateLimitStorages } from './support/rate-limit-storages.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * API.md section 5 end to end, on the real app: the whole suite runs on the
 * in-process storage, and again on Redis when REDIS_URL is set (CI). Each app has
 * its own plans file and, on Redis, its own key prefix.
 */
const STORAGES = rateLimitStorages('rl-e2e');

const PLANS = `plans:
  free: { perMinute: 60, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
  enterprise: per-key
`;

function plansFile(text = PLANS): string {
  return temporaryPlansFile(text);
}

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Every response: the three headers as integers, Reset in the future, and both IETF fields. */
function expectRateHeaders(res: request.Response): void {
  for (const name of RATE_HEADERS) expect(res.headers[name]).toMatch(/^\d+$/);
  const now = Date.now() / 1000;
  const reset = Number(res.headers['x-ratelimit-reset']);
  expect(reset).toBeGreaterThanOrEqual(Math.floor(now));
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 86_400 + 1);
  expect(res.headers['ratelimit-policy']).toMatch(/^"minute";q=\d+;w=60, "day";q=\d+;w=86400$/);
  expect(res.headers.ratelimit).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
  // Nothing of the throttler's own header set (suffixed names, seconds-until reset).
  const extra = Object.keys(res.headers).filter((h) => /ratelimit|retry-after-/i.test(h));
  expect(extra.sort()).toEqual(['ratelimit', 'ratelimit-policy', ...RATE_HEADERS].sort());
}

function remaining(res: request.Response): number {
  return Number(res.headers['x-ratelimit-remaining']);
}

/** `{minute: {r, t}, day: {r, t}}` from the RateLimit field. */
function windows(res: request.Response): Record<string, { r: number; t: number }> {
  const out: Record<string, { r: number; t: number }> = {};
  for (const item of String(res.headers.ratelimit).split(', ')) {
    const m = /^"(\w+)";r=(\d+);t=(\d+)$/.exec(item);
    if (m) out[m[1]] = { r: Number(m[2]), t: Number(m[3]) };
  }
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The id of the key whose secret this is (keys are listed with their visible prefix). */
async function idOf(keys: ApiKeysService, secret: string): Promise<number> {
  const page = await keys.list({ limit: 100, afterId: null });
  const key = page.items.find((k) => k.prefix === secret.slice(0, 12));
  if (!key) throw new Error('key not found');
  return key.id;
}

describe.each(STORAGES)('rate limits on the %s storage (e2e)', (_storage, storageEnv) => {
  describe('with the seed plans', () => {
    let t: TestApp;
    let admin: string;
    let keys: ApiKeysService;
    let file: string;

    beforeAll(async () => {
      file = plansFile();
      // TRUST_PROXY: each test speaks from an X-Forwarded-For address of its own.
      t = await createTestApp({
        ...storageEnv(),
        PLANS_FILE: file,
        TRUST_PROXY: 'loopback',
        PLANS_WATCH_INTERVAL_MS: '50',
      });
      await t.reset();
      keys = t.app.get(ApiKeysService);
      admin = await t.key(['read', 'write', 'admin'], 'enterprise', { perMinute: 100_000, perDay: 1_000_000 });
    });
    afterAll(() => t.close());

    let ipCounter = 0;
    /** A fresh client address for each test. */
    const newIp = () => `198.51.100.${++ipCounter}`;

    it('puts the headers on every response: success, 401, 403, 404, 405, 400, 413, 415 and public routes', async () => {
      const key = await t.key(['read']);
      const ip = newIp();
      const get = (path: string) => request(t.http).get(path).set('X-Forwarded-For', ip);
      const responses = [
        await get('/categories').set('X-API-Key', key).expect(200),
        await get('/categories').expect(401),
        await get('/categories').set('X-API-Key', 'psk_unknown').expect(401),
        await request(t.http).post('/categories').set('X-API-Key', key).send({ name: 'x' }).expect(403),
        await get('/no-such-route').set('X-API-Key', key).expect(404),
        await get('/no-such-route').expect(404),
        await request(t.http).delete('/categories').set('X-API-Key', key).expect(405),
        await request(t.http)
          .post('/categories')
          .set('X-API-Key', admin)
          .set('Content-Type', 'application/json')
          .send('{"name":')
          .expect(400),
        await request(t.http)
          .post('/categories')
          .set('X-API-Key', admin)
          .send({ name: 'x'.repeat(20_000) })
          .expect(413),
        await request(t.http)
          .post('/categories')
          .set('X-API-Key', admin)
          .set('Content-Type', 'text/plain')
          .send('hi')
          .expect(415),
        await get('/openapi.json').expect(200),
      ];
      for (const res of responses) {
        expectRateHeaders(res);
        expect(res.headers['retry-after']).toBeUndefined();
      }
      expect(responses[0].headers['x-ratelimit-limit']).toBe('60');
    });

    it('counts per key across the whole API, whatever the route or the outcome', async () => {
      const key = await t.key(['read']);
      const seen = [
        remaining(await request(t.http).get('/categories').set('X-API-Key', key)),
        remaining(await request(t.http).get('/pets').set('X-API-Key', key)),
        remaining(await request(t.http).get('/nope').set('X-API-Key', key)),
        remaining(await request(t.http).post('/pets').set('X-API-Key', key).send({})),
      ];
      expect(seen).toEqual([59, 58, 57, 56]);
    });

    it('lets exactly 60 of 100 concurrent requests of a free key through; the rest get 429 in the Error shape', async () => {
      const key = await t.key(['read']);
      const results = await Promise.all(
        Array.from({ length: 100 }, () => request(t.http).get('/categories').set('X-API-Key', key)),
      );
      const ok = results.filter((r) => r.status === 200);
      const rejected = results.filter((r) => r.status === 429);
      expect([ok.length, rejected.length]).toEqual([60, 40]);
      // Each success saw its own count: no two requests took the same slot.
      expect(new Set(ok.map(remaining)).size).toBe(60);
      for (const res of rejected) {
        expect(res.body).toEqual({ code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), status: 429 });
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expectRateHeaders(res);
        expect(res.headers['x-ratelimit-limit']).toBe('60');
        expect(res.headers['x-ratelimit-remaining']).toBe('0');
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
      }
      // Rejected requests consumed nothing: the day window counts the 60 successes only.
      const after = await request(t.http).get('/categories').set('X-API-Key', key).expect(429);
      expect(windows(after).day.r).toBe(1000 - 60);
    });

    it('counts requests without a valid key per client address under the free plan', async () => {
      const ip = newIp();
      const from = () => request(t.http).get('/categories').set('X-Forwarded-For', ip);
      const missing = await from().expect(401);
      const unknown = await from().set('X-API-Key', 'psk_not-a-key').expect(401);
      const revokedSecret = await t.key(['read']);
      await keys.revoke(await idOf(keys, revokedSecret), SYSTEM);
      const revokedRes = await from().set('X-API-Key', revokedSecret).expect(401);
      expect([missing, unknown, revokedRes].map(remaining)).toEqual([59, 58, 57]);
      expect(missing.headers['x-ratelimit-limit']).toBe('60');
      expect(unknown.body.code).toBe('INVALID_API_KEY');

      // Another address has its own counter; so has a valid key sent from this one.
      expect(remaining(await request(t.http).get('/categories').set('X-Forwarded-For', newIp()))).toBe(59);
      const key = await t.key(['read']);
      expect(remaining(await from().set('X-API-Key', key).expect(200))).toBe(59);

      await Promise.all(Array.from({ length: 57 }, () => from()));
      const over = await from().set('X-API-Key', 'psk_guess').expect(429);
      expect(over.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(over.body.message).toContain('without a valid API key');
      await from().set('X-API-Key', key).expect(200);
    });

    it('counts an IPv6 client per /64 network', async () => {
      const a = await request(t.http).get('/categories').set('X-Forwarded-For', '2001:db8:aa:1::1');
      const b = await request(t.http).get('/categories').set('X-Forwarded-For', '2001:db8:aa:1::ffff');
      const other = await request(t.http).get('/categories').set('X-Forwarded-For', '2001:db8:aa:2::1');
      expect([remaining(a), remaining(b), remaining(other)]).toEqual([59, 58, 59]);
    });

    it("applies each plan's quotas, and an enterprise key's own", async () => {
      const pro = await t.key(['read'], 'pro');
      const business = await t.key(['read'], 'business');
      expect((await request(t.http).get('/categories').set('X-API-Key', pro)).headers['x-ratelimit-limit']).toBe('300');
      expect((await request(t.http).get('/categories').set('X-API-Key', business)).headers['x-ratelimit-limit']).toBe(
        '1000',
      );

      const enterprise = (
        await keys.create(
          { name: 'e', plan: 'enterprise', scopes: ['read'], limits: { perMinute: 3, perDay: 5_000 } },
          SYSTEM,
        )
      ).secret;
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await request(t.http).get('/categories').set('X-API-Key', enterprise)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });

    // Within one minute the day window binds most only when a day allows fewer requests than a minute,
    // which neither the plan table nor key limits accept; when both windows are spent the day window,
    // which frees last, is the one described (the decision's unit tests cover the other cases).
    it('rejects on the day window when both are spent, with Retry-After to its end', async () => {
      const enterprise = (
        await keys.create(
          { name: 'daily', plan: 'enterprise', scopes: ['read'], limits: { perMinute: 3, perDay: 3 } },
          SYSTEM,
        )
      ).secret;
      const first = await request(t.http).get('/categories').set('X-API-Key', enterprise).expect(200);
      expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual(['3', '2']);
      await request(t.http).get('/categories').set('X-API-Key', enterprise).expect(200);
      await request(t.http).get('/categories').set('X-API-Key', enterprise).expect(200);
      const over = await request(t.http).get('/categories').set('X-API-Key', enterprise).expect(429);
      expect(over.headers['x-ratelimit-limit']).toBe('3');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(86_000);
      expect(Number(over.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 + 86_000);
    });

    it('describes the shorter window on a tie', async () => {
      const enterprise = (
        await keys.create(
          { name: 'tie', plan: 'enterprise', scopes: ['read'], limits: { perMinute: 10, perDay: 10 } },
          SYSTEM,
        )
      ).secret;
      const res = await request(t.http).get('/categories').set('X-API-Key', enterprise).expect(200);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    });

    it('applies a plan change made by an administrator at once, keeping the count', async () => {
      const secret = await t.key(['read']);
      await request(t.http).get('/categories').set('X-API-Key', secret).expect(200);
      await request(t.http).get('/categories').set('X-API-Key', secret).expect(200);
      await request(t.http)
        .patch(`/admin/api-keys/${await idOf(keys, secret)}`)
        .set('X-API-Key', admin)
        .send({ plan: 'pro' })
        .expect(200);
      const res = await request(t.http).get('/categories').set('X-API-Key', secret).expect(200);
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['300', '297']);
    });

    it('reports on health probes without counting them', async () => {
      const ip = newIp();
      const probe = () => request(t.http).get('/health/live').set('X-Forwarded-For', ip);
      const seen = [remaining(await probe()), remaining(await probe()), remaining(await probe())];
      expect(seen).toEqual([60, 60, 60]);
      expectRateHeaders(await probe());
    });

    it('a backing-off client is never banned; one that keeps hammering is', async () => {
      const polite = await t.key(['read']);
      await Promise.all(Array.from({ length: 60 }, () => request(t.http).get('/categories').set('X-API-Key', polite)));
      const codes: string[] = [];
      let delay = 1;
      for (let attempt = 0; attempt < 12; attempt++) {
        const res = await request(t.http).get('/categories').set('X-API-Key', polite);
        codes.push(res.body.code);
        await sleep(delay);
        delay *= 2; // 1 ms, 2 ms, … 2 s: twelve retries within the minute
      }
      expect(new Set(codes)).toEqual(new Set(['RATE_LIMIT_EXCEEDED']));

      const hammer = await t.key(['read']);
      const send = () => request(t.http).get('/categories').set('X-API-Key', hammer);
      await Promise.all(Array.from({ length: 60 }, send));
      // 3 × 60 rejections are tolerated within a minute; the next one bans.
      for (let batch = 0; batch < 9; batch++) {
        const results = await Promise.all(Array.from({ length: 20 }, send));
        expect(results.map((r) => r.body.code)).toEqual(Array(20).fill('RATE_LIMIT_EXCEEDED'));
      }
      const banned = await send().expect(429);
      expect(banned.body).toEqual({ code: 'API_KEY_BANNED', message: expect.any(String), status: 429 });
      expect(Number(banned.headers['retry-after'])).toBeGreaterThan(890);
    }, 30_000);

    it('GET /admin/plans shows the effective table', async () => {
      const res = await request(t.http).get('/admin/plans').set('X-API-Key', admin).expect(200);
      expect(res.body).toEqual([
        { name: 'free', perMinute: 60, perDay: 1000 },
        { name: 'pro', perMinute: 300, perDay: 10000 },
        { name: 'business', perMinute: 1000, perDay: 100000 },
        { name: 'enterprise' },
      ]);
      expectRateHeaders(res);
    });

    it('reloads the plans file when it changes, keeping the counters; a bad edit keeps the table in force', async () => {
      const key = await t.key(['read']);
      await request(t.http).get('/categories').set('X-API-Key', key).expect(200);
      writeFileSync(
        file,
        PLANS.replace('free: { perMinute: 60, perDay: 1000 }', 'free: { perMinute: 10, perDay: 1000 } # edited'),
      );
      await eventually(async () => {
        const res = await request(t.http).get('/admin/plans').set('X-API-Key', admin);
        return res.body[0]?.perMinute === 10;
      }, 10_000);
      const res = await request(t.http).get('/categories').set('X-API-Key', key).expect(200);
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['10', '8']);

      writeFileSync(file, PLANS.replace('perMinute: 60', 'perMinute: ten # a typo'));
      await sleep(400);
      const plans = await request(t.http).get('/admin/plans').set('X-API-Key', admin).expect(200);
      expect(plans.body[0]).toEqual({ name: 'free', perMinute: 10, perDay: 1000 });

      writeFileSync(file, PLANS);
      expect(t.app.get(PlanTableService).reload('SIGHUP')).toBe(true); // what main.ts does on SIGHUP
      const back = await request(t.http).get('/categories').set('X-API-Key', key).expect(200);
      expect([back.headers['x-ratelimit-limit'], back.headers['x-ratelimit-remaining']]).toEqual(['60', '57']);
    });

    it('POST /admin/api-keys/{keyId}/unban: 404 for an unknown key, admin scope only', async () => {
      await request(t.http).post('/admin/api-keys/999999/unban').set('X-API-Key', admin).expect(404, {
        code: 'API_KEY_NOT_FOUND',
        message: 'API key 999999 does not exist',
        status: 404,
      });
      const reader = await t.key(['read']);
      const res = await request(t.http).post('/admin/api-keys/1/unban').set('X-API-Key', reader).expect(403);
      expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
    });
  });

  describe('bans, with small quotas from the environment', () => {
    let t: TestApp;
    let admin: string;
    let keys: ApiKeysService;

    beforeAll(async () => {
      t = await createTestApp({
        ...storageEnv(),
        PLANS_FILE: plansFile(),
        PLAN_FREE_PER_MINUTE: '2',
        BAN_THRESHOLD_MULTIPLIER: '2',
        BAN_DURATION_SECONDS: '600',
      });
      await t.reset();
      keys = t.app.get(ApiKeysService);
      admin = await t.key(['read', 'write', 'admin'], 'enterprise', { perMinute: 1_000, perDay: 10_000 });
    });
    afterAll(() => t.close());

    it('shows the environment override in GET /admin/plans', async () => {
      const res = await request(t.http).get('/admin/plans').set('X-API-Key', admin).expect(200);
      expect(res.body[0]).toEqual({ name: 'free', perMinute: 2, perDay: 1000 });
    });

    it('bans after more than multiplier × per-minute rejections, until an administrator lifts it', async () => {
      const secret = await t.key(['read']);
      const keyId = await idOf(keys, secret);
      const send = () => request(t.http).get('/categories').set('X-API-Key', secret);
      expect([(await send()).status, (await send()).status]).toEqual([200, 200]);
      for (let i = 0; i < 4; i++) expect((await send()).body.code).toBe('RATE_LIMIT_EXCEEDED');

      const banned = await send().expect(429);
      expect(banned.body).toEqual({ code: 'API_KEY_BANNED', message: expect.any(String), status: 429 });
      const retryAfter = Number(banned.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(590);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expectRateHeaders(banned);
      expect(banned.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(banned.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 + 590);
      // Banned everywhere, whatever the route, and it does not consume quota.
      const stillBanned = await request(t.http).get('/nope').set('X-API-Key', secret).expect(429);
      expect(stillBanned.body.code).toBe('API_KEY_BANNED');

      await request(t.http).post(`/admin/api-keys/${keyId}/unban`).set('X-API-Key', admin).expect(204);
      // The minute is still used up, but the key is no longer banned.
      const after = await send().expect(429);
      expect(after.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(windows(after).day.r).toBe(1000 - 2);
    });

    it('bans an address that keeps sending without a valid key', async () => {
      const send = () => request(t.http).get('/categories').set('X-API-Key', 'psk_guessing');
      const codes = [];
      for (let i = 0; i < 2 + 5; i++) codes.push((await send()).body.code);
      expect(codes).toEqual([
        'INVALID_API_KEY',
        'INVALID_API_KEY',
        'RATE_LIMIT_EXCEEDED',
        'RATE_LIMIT_EXCEEDED',
        'RATE_LIMIT_EXCEEDED',
        'RATE_LIMIT_EXCEEDED',
        'API_KEY_BANNED',
      ]);
    });
  });
});

describe('rate limits when Redis is unreachable (e2e)', () => {
  // Nothing listens on port 1; start-up waits up to 3 s for Redis, then serves anyway.
  const DOWN = { REDIS_URL: 'redis://127.0.0.1:1', PLANS_FILE: plansFile() };

  it('fails open by default: serves with the headers, limits in-process, and reports unhealthy', async () => {
    const t = await createTestApp(DOWN);
    try {
      await t.reset();
      expect(t.app.get(RateLimitHealth).status()).toEqual({ storage: 'redis', healthy: false });
      const key = await t.key(['read']);
      const results = [];
      for (let i = 0; i < 61; i++) results.push(await request(t.http).get('/categories').set('X-API-Key', key));
      expect(results.slice(0, 60).every((r) => r.status === 200)).toBe(true);
      expectRateHeaders(results[0]);
      expect(remaining(results[0])).toBe(59);
      expect(results[60].status).toBe(429);
    } finally {
      await t.close();
    }
  }, 20_000);

  it('fails closed when RATE_LIMIT_FAIL_OPEN=false: 503 in the Error shape, never 500', async () => {
    const t = await createTestApp({ ...DOWN, RATE_LIMIT_FAIL_OPEN: 'false' });
    try {
      const res = await request(t.http).get('/categories').expect(503);
      expect(res.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String), status: 503 });
      expect(res.headers['retry-after']).toBe('5');
      for (const name of RATE_HEADERS) expect(res.headers[name]).toMatch(/^\d+$/);
      expect(JSON.stringify(res.body)).not.toMatch(/redis|6379|ECONNREFUSED/i);
    } finally {
      await t.close();
    }
  }, 20_000);
});

describe('rate limits switched off (RATE_LIMIT_ENABLED=false, benchmarks only)', () => {
  it('sends no rate-limit headers and never answers 429', async () => {
    const t = await createTestApp({ RATE_LIMIT_ENABLED: 'false', REDIS_URL: '' });
    try {
      const res = await request(t.http).get('/openapi.json').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('a bad plans file at start-up', () => {
  it('stops the app with a message naming the bad entry', async () => {
    const file = plansFile(PLANS.replace('pro: { perMinute: 300', 'pro: { perMinute: "lots"'));
    await expect(createTestApp({ PLANS_FILE: file, REDIS_URL: '' })).rejects.toThrow(
      `${file}: plans.pro.perMinute must be an integer from 1 to 2147483647, got "lots"`,
    );
  });

  it('stops the app when PLANS_FILE names a file that does not exist', async () => {
    await expect(createTestApp({ PLANS_FILE: '/nonexistent/plans.yaml', REDIS_URL: '' })).rejects.toThrow(
      '/nonexistent/plans.yaml: no such file (set by PLANS_FILE)',
    );
  });
});
