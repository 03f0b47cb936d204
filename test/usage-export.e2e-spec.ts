import { SYSTEM } from '../src/audit/index.js';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { KeyUsageRecorder } from '../src/api-keys/index.js';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * GET /admin/usage: every key's usage per day (what billing reads), as JSON or, with
 * `Accept: text/csv`, as CSV; paged by day then key. Traffic is made on the app and
 * flushed explicitly, older days are written as rows.
 */
interface Row {
  date: string;
  keyId: number;
  accountId: number | null;
  requests: number;
  refused: number;
  bans: number;
}

const DAY_MS = 86_400_000;
const dayOf = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

describe('usage export (GET /admin/usage, e2e)', () => {
  let t: TestApp;
  let admin: string;
  const keyIds: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: '', USAGE_FLUSH_INTERVAL_MS: '0' });
    await t.reset();
    const keys = t.app.get(ApiKeysService);
    const issued = await keys.create(
      {
        name: 'admin',
        plan: 'enterprise',
        scopes: ['read', 'write', 'admin'],
        limits: { perMinute: 100_000, perDay: 1_000_000 },
      },
      SYSTEM,
    );
    admin = issued.secret;
    for (let i = 0; i < 3; i++)
      keyIds.push((await keys.create({ name: `k${i}`, plan: 'free', scopes: ['read'] }, SYSTEM)).key.id);
    // Older days as rows; today from real traffic of the first key.
    await t.db.query(
      `INSERT INTO api_key_usage (api_key_id, day, requests, refused, bans)
       VALUES ($1, $4::date, 10, 2, 1), ($2, $4::date, 20, 0, 0), ($3, $4::date, 30, 0, 0), ($1, $5::date, 5, 0, 0)`,
      [keyIds[0], keyIds[1], keyIds[2], dayOf(-2), dayOf(-40)],
    );
  });
  afterAll(() => t?.close());

  const exportUsage = (query: string) => request(t.http).get(`/admin/usage?${query}`).set(KEY, admin);
  const range = `from=${dayOf(-3)}&to=${dayOf(0)}`;

  it('lists one row per key and day with traffic, by day then key, accountId null', async () => {
    const secret = await t.key(['read']);
    await request(t.http).get('/categories').set(KEY, secret).expect(200);
    await request(t.http).get('/categories').set(KEY, secret).expect(200);
    await t.app.get(KeyUsageRecorder).flush();
    const rows = (await exportUsage(range).expect(200)).body as Row[];
    const older = rows.filter((r) => r.date === dayOf(-2));
    expect(older).toEqual([
      { date: dayOf(-2), keyId: keyIds[0], accountId: null, requests: 10, refused: 2, bans: 1 },
      { date: dayOf(-2), keyId: keyIds[1], accountId: null, requests: 20, refused: 0, bans: 0 },
      { date: dayOf(-2), keyId: keyIds[2], accountId: null, requests: 30, refused: 0, bans: 0 },
    ]);
    const today = rows.filter((r) => r.date === dayOf(0));
    expect(today.map((r) => r.requests).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
    expect(rows.map((r) => `${r.date}/${String(r.keyId).padStart(6, '0')}`)).toEqual(
      rows.map((r) => `${r.date}/${String(r.keyId).padStart(6, '0')}`).sort(),
    );
    expect(rows.some((r) => r.date === dayOf(-40))).toBe(false); // outside the range
  });

  it('gives the same rows as CSV with a header row for Accept: text/csv', async () => {
    const json = (await exportUsage(range).expect(200)).body as Row[];
    const res = await exportUsage(range).set('Accept', 'text/csv').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('date,keyId,accountId,requests,refused,bans');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1)).toEqual(json.map((r) => [r.date, r.keyId, '', r.requests, r.refused, r.bans].join(',')));
    // JSON stays the default, for */* and for a client that prefers it.
    expect((await exportUsage(range).set('Accept', '*/*').expect(200)).headers['content-type']).toMatch(/json/);
    const preferJson = await exportUsage(range).set('Accept', 'application/json, text/csv;q=0.5').expect(200);
    expect(preferJson.headers['content-type']).toMatch(/json/);
  });

  it('pages by day then key, following Link rel="next", in JSON and in CSV', async () => {
    const all = (await exportUsage(range).expect(200)).body as Row[];
    expect(all.length).toBeGreaterThanOrEqual(4);
    const paged: Row[] = [];
    let next: string | null = `/admin/usage?${range}&limit=2`;
    while (next) {
      const res: request.Response = await request(t.http).get(next).set(KEY, admin).expect(200);
      paged.push(...(res.body as Row[]));
      next = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1] ?? null;
    }
    expect(paged).toEqual(all);
    const csvPage = await exportUsage(`${range}&limit=2`).set('Accept', 'text/csv').expect(200);
    expect(csvPage.text.split('\r\n')).toHaveLength(4); // header, two rows, the final line end
    expect(String(csvPage.headers.link)).toMatch(/rel="next"/);
  });

  it('refuses a bad range, limit or cursor with 400, and callers without the admin scope', async () => {
    for (const query of [
      `from=${dayOf(0)}&to=${dayOf(-1)}`,
      'from=2026-02-30',
      `from=${dayOf(-400)}&to=${dayOf(0)}`,
      'limit=0',
      'limit=1001',
      'cursor=nope',
    ]) {
      expectError(await exportUsage(query), 400, 'VALIDATION_FAILED');
    }
    const reader = await t.key(['read', 'write']);
    expectError(await request(t.http).get('/admin/usage').set(KEY, reader), 403, 'INSUFFICIENT_SCOPE');
  });
});
