import { SYSTEM } from '../src/audit/index.js';
import type { Scope } from '@petstore/auth';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { KeyUsageRecorder } from '../src/api-keys/index.js';
import { expectError, KEY } from './support/http.js';
import { rateLimitStorages } from './support/rate-limit-storages.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * Quota visibility: GET /rate-limit (a key's plan, windows and ban, never counted)
 * on every storage, and GET /admin/api-keys/{keyId}/usage (requests, 429s and bans
 * per day, flushed to PostgreSQL in batches), including two instances on Redis
 * whose flushes add up exactly. Each flush is called explicitly (the periodic one
 * is off), so nothing waits on a timer.
 */
const STORAGES = rateLimitStorages('quota-e2e');

// Small quotas, and a ban after more than 1 × the per-minute quota of refusals (the 6th).
const PLANS = `plans:
  free: { perMinute: 5, perDay: 100 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
`;
const FREE = { perMinute: 5, perDay: 100 };

function appEnv(): Record<string, string> {
  return { PLANS_FILE: temporaryPlansFile(PLANS), BAN_THRESHOLD_MULTIPLIER: '1', USAGE_FLUSH_INTERVAL_MS: '0' };
}

interface Window {
  name: string;
  limit: number;
  remaining: number;
  reset: number;
}
interface Status {
  plan: string;
  windows: Window[];
  bannedUntil?: number;
}
interface Day {
  date: string;
  requests: number;
  refused: number;
  bans: number;
}

const DAY_MS = 86_400_000;
const dayOf = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

/** Issues a key and returns its id and secret. */
async function issue(t: TestApp, scopes: Scope[] = ['read']): Promise<{ id: number; secret: string }> {
  const { key, secret } = await t.app.get(ApiKeysService).create({ name: 'quota', plan: 'free', scopes }, SYSTEM);
  return { id: key.id, secret };
}

/** Sends `n` GET /categories one after the other and returns their statuses. */
async function send(t: TestApp, secret: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await request(t.http).get('/categories').set(KEY, secret)).status);
  return statuses;
}

function status(t: TestApp, secret: string): request.Test {
  return request(t.http).get('/rate-limit').set(KEY, secret);
}

describe.each(STORAGES)('quota on the %s storage (GET /rate-limit, e2e)', (_name, storageEnv) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ ...appEnv(), ...storageEnv() });
    await t.reset();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows the key's plan and both windows, as the headers of the same response say", async () => {
    const { secret } = await issue(t);
    expect(await send(t, secret, 3)).toEqual([200, 200, 200]);
    const res = await status(t, secret).expect(200);
    const body = res.body as Status;
    expect(body).toEqual({
      plan: 'free',
      windows: [
        { name: 'minute', limit: FREE.perMinute, remaining: 2, reset: expect.any(Number) },
        { name: 'day', limit: FREE.perDay, remaining: 97, reset: expect.any(Number) },
      ],
    });
    const [minute, day] = body.windows;
    // The minute binds most: X-RateLimit-* describe it, with the same reset.
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
    expect(Number(res.headers['x-ratelimit-reset'])).toBe(minute.reset);
    expect(res.headers.ratelimit).toMatch(/^"minute";r=2;t=\d+, "day";r=97;t=\d+$/);
    const now = Date.now() / 1000;
    expect(minute.reset).toBeGreaterThan(now);
    expect(minute.reset).toBeLessThanOrEqual(Math.ceil(now) + 60);
    expect(day.reset).toBeGreaterThan(minute.reset);
    expect(day.reset).toBeLessThanOrEqual(Math.ceil(now) + 86_400);
  });

  it('is never counted: calling it more often than the quota changes nothing; the next counted request does', async () => {
    const { secret } = await issue(t);
    await send(t, secret, 1);
    const seen: number[][] = [];
    for (let i = 0; i < FREE.perMinute * 2; i++) {
      const res = await status(t, secret).expect(200);
      seen.push((res.body as Status).windows.map((w) => w.remaining));
      expect(res.headers['x-ratelimit-remaining']).toBe('4');
    }
    expect(new Set(seen.map((s) => s.join())).size).toBe(1);
    expect(seen[0]).toEqual([4, 99]);
    await send(t, secret, 1);
    expect((await status(t, secret).expect(200)).body.windows.map((w: Window) => w.remaining)).toEqual([3, 98]);
  });

  it('answers a key over its limit (remaining 0) and a key of any scope', async () => {
    const { secret } = await issue(t, ['write']);
    expect(await send(t, secret, 6)).toEqual([403, 403, 403, 403, 403, 429]);
    const body = (await status(t, secret).expect(200)).body as Status;
    expect(body.windows.map((w) => w.remaining)).toEqual([0, 95]);
    expect(body.bannedUntil).toBeUndefined();
  });

  it('reports a ban: when it ends (as X-RateLimit-Reset), and nothing left in any window until then', async () => {
    const { secret } = await issue(t);
    const statuses = await send(t, secret, 5 + 6);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const banned = await request(t.http).get('/categories').set(KEY, secret);
    expectError(banned, 429, 'API_KEY_BANNED');
    const res = await status(t, secret).expect(200);
    const body = res.body as Status;
    expect(body.bannedUntil).toBe(Number(res.headers['x-ratelimit-reset']));
    const now = Date.now() / 1000;
    expect(body.bannedUntil).toBeGreaterThan(now + 900 - 60);
    expect(body.bannedUntil).toBeLessThanOrEqual(Math.ceil(now) + 900);
    expect(body.windows.map((w) => w.remaining)).toEqual([0, 0]);
    for (const w of body.windows) expect(w.reset).toBeGreaterThanOrEqual(body.bannedUntil as number);
  });

  it('needs a valid key; requests without one are counted against the address as anywhere else', async () => {
    const ip = '198.51.100.77';
    const first = await request(t.http).get('/rate-limit').set('X-Forwarded-For', ip);
    expectError(first, 401, 'UNAUTHENTICATED');
    const second = await request(t.http).get('/rate-limit').set(KEY, 'psk_not_a_key').set('X-Forwarded-For', ip);
    expectError(second, 401, 'INVALID_API_KEY');
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
  });
});

describe('quota on the memory storage (GET /admin/api-keys/{keyId}/usage, e2e)', () => {
  let t: TestApp;
  let admin: string;
  let recorder: KeyUsageRecorder;
  const range = `from=${dayOf(-1)}&to=${dayOf(1)}`;

  beforeAll(async () => {
    t = await createTestApp({ ...appEnv(), REDIS_URL: '' });
    await t.reset();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise');
    recorder = t.app.get(KeyUsageRecorder);
  });
  afterAll(async () => {
    await t?.close();
  });

  const usage = (keyId: number | string, query = range) =>
    request(t.http).get(`/admin/api-keys/${keyId}/usage?${query}`).set(KEY, admin);

  /** Totals over the days returned (robust to a run that crosses midnight UTC). */
  const totals = (days: Day[]) =>
    days.reduce(
      (sum, d) => ({ requests: sum.requests + d.requests, refused: sum.refused + d.refused, bans: sum.bans + d.bans }),
      { requests: 0, refused: 0, bans: 0 },
    );

  it('counts requests, refusals (429) and bans per day once flushed; GET /rate-limit is not counted', async () => {
    const { id, secret } = await issue(t);
    // 5 served, then 6 refusals (the 6th starts the ban), then 2 refused while banned.
    const statuses = await send(t, secret, 13);
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(8).fill(429)]);
    await status(t, secret).expect(200);
    expect(totals((await usage(id).expect(200)).body as Day[])).toEqual({ requests: 0, refused: 0, bans: 0 });

    expect(await recorder.flush()).toBeGreaterThanOrEqual(1);
    const days = (await usage(id).expect(200)).body as Day[];
    expect(days.map((d) => d.date)).toEqual([dayOf(-1), dayOf(0), dayOf(1)]);
    expect(totals(days)).toEqual({ requests: 5, refused: 8, bans: 1 });
    expect(days.find((d) => d.date === dayOf(-1))).toEqual({ date: dayOf(-1), requests: 0, refused: 0, bans: 0 });

    // A second batch adds to the same day.
    await send(t, secret, 2);
    await recorder.flush();
    expect(totals((await usage(id).expect(200)).body as Day[])).toEqual({ requests: 5, refused: 10, bans: 1 });
  });

  it('lists every day of the default range (the last 30, today last), with zeros for days without traffic', async () => {
    const { id, secret } = await issue(t);
    await send(t, secret, 2);
    await recorder.flush();
    const res = await request(t.http).get(`/admin/api-keys/${id}/usage`).set(KEY, admin).expect(200);
    const days = res.body as Day[];
    expect(days).toHaveLength(30);
    expect(days[0].date).toBe(dayOf(-29));
    expect(days[29]).toEqual({ date: dayOf(0), requests: 2, refused: 0, bans: 0 });
    expect(days.slice(0, 29).every((d) => d.requests + d.refused + d.bans === 0)).toBe(true);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
  });

  it('keeps days within the retention (400 days by default) and sweeps older ones', async () => {
    const { id } = await issue(t);
    await t.db.query(
      `INSERT INTO api_key_usage (api_key_id, day, requests, refused, bans)
       VALUES ($1, $2::date, 7, 1, 0), ($1, $3::date, 9, 0, 0)`,
      [id, dayOf(-100), dayOf(-400)],
    );
    expect(await recorder.sweep()).toBe(1);
    const kept = (await usage(id, `from=${dayOf(-100)}&to=${dayOf(-100)}`).expect(200)).body as Day[];
    expect(kept).toEqual([{ date: dayOf(-100), requests: 7, refused: 1, bans: 0 }]);
    const rows = await t.db.query('SELECT 1 FROM api_key_usage WHERE api_key_id = $1 AND day = $2::date', [
      id,
      dayOf(-400),
    ]);
    expect(rows).toHaveLength(0);
  });

  it('is admin-only', async () => {
    const { id } = await issue(t);
    const reader = await t.key(['read', 'write']);
    expectError(await request(t.http).get(`/admin/api-keys/${id}/usage`).set(KEY, reader), 403, 'INSUFFICIENT_SCOPE');
    expectError(await request(t.http).get(`/admin/api-keys/${id}/usage`), 401, 'UNAUTHENTICATED');
  });

  it('answers an unknown key with 404 API_KEY_NOT_FOUND', async () => {
    const res = await usage(987_654);
    expectError(res, 404, 'API_KEY_NOT_FOUND');
    expect(res.body.message).toBe('API key 987654 does not exist');
  });

  it.each([
    ['from=2026-02-30', 'from must be a calendar date (YYYY-MM-DD)'],
    ['from=yesterday', 'from must be a calendar date (YYYY-MM-DD)'],
    ['to=2026-1-5', 'to must be a calendar date (YYYY-MM-DD)'],
    ['from=2026-01-01&from=2026-01-02', 'from must be a calendar date (YYYY-MM-DD)'],
    ['from=2026-11-23&to=2026-11-01', 'from (2026-11-23) must not be after to (2026-11-01)'],
    ['from=2025-01-01&to=2026-01-02', 'from..to covers 367 days; at most 366 days per request'],
    ['from=2026-01-01&to=2026-01-02&limit=5', 'limit is not an allowed field'],
  ])('refuses %s with 400 VALIDATION_FAILED', async (query, problem) => {
    const { id } = await issue(t);
    const res = await usage(id, query);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.message).toContain(problem);
  });

  it('accepts a range of exactly 366 days', async () => {
    const { id } = await issue(t);
    const days = (await usage(id, 'from=2024-01-01&to=2024-12-31').expect(200)).body as Day[];
    expect(days).toHaveLength(366);
    expect(days[59].date).toBe('2024-02-29');
  });

  it('writes what is pending when the app closes (graceful shutdown)', async () => {
    const other = await createTestApp({ ...appEnv(), REDIS_URL: '' });
    let closed = false;
    try {
      const { id, secret } = await issue(other);
      expect(await send(other, secret, 3)).toEqual([200, 200, 200]);
      await other.close();
      closed = true;
      expect(totals((await usage(id).expect(200)).body as Day[])).toEqual({ requests: 3, refused: 0, bans: 0 });
    } finally {
      if (!closed) await other.close();
    }
  });
});

/**
 * Two instances sharing counters in Redis, each flushing its own counts: the
 * stored totals are the exact sums (one ban, counted by the instance that started it).
 */
const REDIS_URL = process.env.REDIS_URL;
(REDIS_URL ? describe : describe.skip)('quota on Redis: two instances (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  const [, redisEnv] = STORAGES[1] ?? ['redis', () => ({})];

  beforeAll(async () => {
    const env = { ...appEnv(), ...redisEnv() };
    a = await createTestApp(env);
    b = await createTestApp(env);
    await a.reset();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('adds up exactly what both instances counted', async () => {
    const admin = await a.key(['read', 'write', 'admin'], 'enterprise');
    const { id, secret } = await issue(a);
    // 40 concurrent requests over both instances: 5 served, 6 refusals start the ban, the rest refused banned.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request(i % 2 === 0 ? a.http : b.http)
          .get('/categories')
          .set(KEY, secret),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(35);
    // GET /rate-limit on either instance shares the state and counts nothing.
    const seen = await Promise.all([a, b].map((app) => status(app, secret).expect(200)));
    for (const res of seen) expect((res.body as Status).bannedUntil).toEqual(expect.any(Number));

    await a.app.get(KeyUsageRecorder).flush();
    await b.app.get(KeyUsageRecorder).flush();
    const res = await request(a.http)
      .get(`/admin/api-keys/${id}/usage?from=${dayOf(-1)}&to=${dayOf(1)}`)
      .set(KEY, admin)
      .expect(200);
    const sum = (res.body as Day[]).reduce(
      (s, d) => ({ requests: s.requests + d.requests, refused: s.refused + d.refused, bans: s.bans + d.bans }),
      { requests: 0, refused: 0, bans: 0 },
    );
    expect(sum).toEqual({ requests: 5, refused: 35, bans: 1 });
  });
});
