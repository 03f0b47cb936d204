import request from 'supertest';
import { KeyUsageRecorder } from '../src/api-keys/index.js';
import { eventually } from './support/eventually.js';
import { expectError, KEY, nextLink } from './support/http.js';
import { rateLimitStorages } from './support/rate-limit-storages.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * Accounts (issue 42): a customer's keys share the account's plan and windows. On every
 * storage (memory, and Redis when REDIS_URL is set): two keys of one free account share its
 * 60 a minute, a ban stays the key's that ignored the 429s, a key taken out of the account is
 * counted alone again, a 304 is charged to neither the account's windows nor its usage. On the memory storage: the /admin/accounts operations, keys in
 * accounts (the 422s), an account's usage and the export's accountId.
 */
const STORAGES = rateLimitStorages('accounts-e2e');

// The seed's free plan (60 a minute); pro small, to reach a ban quickly: more than 1 × 5 refusals.
function appEnv(): Record<string, string> {
  const file = temporaryPlansFile(
    `plans:
  free: { perMinute: 60, perDay: 1000 }
  pro: { perMinute: 5, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
`,
  );
  return {
    PLANS_FILE: file,
    BAN_THRESHOLD_MULTIPLIER: '1',
    PLANS_WATCH_INTERVAL_MS: '0',
    USAGE_FLUSH_INTERVAL_MS: '0',
  };
}

interface Account {
  id: number;
  name: string;
  plan: string;
  limits?: { perMinute: number; perDay: number };
  externalId?: string;
  createdAt: string;
}
interface Key {
  id: number;
  plan: string;
  accountId: number | null;
  key?: string;
  revokedAt?: string;
}
interface Day {
  date: string;
  requests: number;
  refused: number;
  bans: number;
}
interface Row extends Day {
  keyId: number;
  accountId: number | null;
}

const remaining = (res: request.Response) => Number(res.headers['x-ratelimit-remaining']);
const today = () => new Date().toISOString().slice(0, 10);

/** The admin calls every suite makes, over HTTP. */
function adminApi(t: () => TestApp, admin: () => string) {
  const api = () => request(t().http);
  return {
    api,
    account: async (body: Record<string, unknown>): Promise<Account> => {
      return (await api().post('/admin/accounts').set(KEY, admin()).send(body).expect(201)).body as Account;
    },
    key: async (body: Record<string, unknown>): Promise<Key & { key: string }> => {
      const res = await api()
        .post('/admin/api-keys')
        .set(KEY, admin())
        .send({ name: 'svc', scopes: ['read'], ...body })
        .expect(201);
      return res.body as Key & { key: string };
    },
    patchKey: (id: number, body: Record<string, unknown>) =>
      api().patch(`/admin/api-keys/${id}`).set(KEY, admin()).send(body),
  };
}

describe.each(STORAGES)('keys of one account share its windows on the %s storage (e2e)', (_storage, storageEnv) => {
  let t: TestApp;
  let admin: string;
  const { api, account, key, patchKey } = adminApi(
    () => t,
    () => admin,
  );

  beforeAll(async () => {
    t = await createTestApp({ ...storageEnv(), ...appEnv() });
    await t.reset();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise', { perMinute: 100_000, perDay: 1_000_000 });
  });
  afterAll(() => t?.close());

  it('two keys of a free account share 60 a minute: the 61st request over both is 429 on either', async () => {
    const acme = await account({ name: 'Acme', plan: 'free' });
    const a = await key({ accountId: acme.id });
    const b = await key({ accountId: acme.id });
    expect([a.plan, a.accountId, b.plan, b.accountId]).toEqual(['free', acme.id, 'free', acme.id]);
    const seen: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await api()
        .get('/categories')
        .set(KEY, i % 2 === 0 ? a.key : b.key)
        .expect(200);
      seen.push(remaining(res));
    }
    // Every response, from either key, shows the one shared window.
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    for (const secret of [a.key, b.key]) {
      const res = await api().get('/categories').set(KEY, secret);
      expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['ratelimit']).toMatch(/^"minute";r=0;t=\d+, "day";r=940;t=\d+$/);
    }
    const status = await api().get('/rate-limit').set(KEY, b.key).expect(200);
    expect(status.body).toMatchObject({ plan: 'free', windows: [{ name: 'minute', limit: 60, remaining: 0 }, {}] });
    const windows = await api().get(`/admin/api-keys/${a.id}/rate-limit`).set(KEY, admin).expect(200);
    expect(windows.body).toMatchObject({
      windows: [
        { name: 'minute', remaining: 0 },
        { name: 'day', remaining: 940 },
      ],
    });

    // Taken out of the account, b is counted alone again (its own fresh windows, the plan it had)...
    const out = await patchKey(b.id, { accountId: null }).expect(200);
    expect(out.body).toMatchObject({ id: b.id, plan: 'free', accountId: null });
    const alone = await api().get('/categories').set(KEY, b.key).expect(200);
    expect(remaining(alone)).toBe(59);
    // ...while a still shares the full window of the account.
    expectError(await api().get('/categories').set(KEY, a.key), 429, 'RATE_LIMIT_EXCEEDED');
    // Back in, it shares the account's full window again.
    await patchKey(b.id, { accountId: acme.id }).expect(200);
    expectError(await api().get('/categories').set(KEY, b.key), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('a ban for ignoring 429s bans the key that ignored them, not its siblings', async () => {
    const small = await account({ name: 'Small', plan: 'pro' }); // 5 a minute, banned after more than 5 refusals
    const noisy = await key({ accountId: small.id });
    const quiet = await key({ accountId: small.id });
    for (let i = 0; i < 5; i++)
      await api()
        .get('/categories')
        .set(KEY, i < 3 ? noisy.key : quiet.key)
        .expect(200);
    let banned = false;
    for (let i = 0; i < 10 && !banned; i++) {
      const res = await api().get('/categories').set(KEY, noisy.key);
      expect(res.status).toBe(429);
      banned = (res.body as { code: string }).code === 'API_KEY_BANNED';
    }
    expect(banned).toBe(true);
    expectError(await api().get('/categories').set(KEY, quiet.key), 429, 'RATE_LIMIT_EXCEEDED');
    const bans = (await api().get('/admin/bans').set(KEY, admin).expect(200)).body as Array<{ keyId?: number }>;
    expect(bans.map((b) => b.keyId)).toContain(noisy.id);
    expect(bans.map((b) => b.keyId)).not.toContain(quiet.id);
  });

  it("a 304 to a key in an account is charged to neither the shared windows nor the day's requests of the key or the account", async () => {
    const polling = await account({ name: 'Polling', plan: 'pro' }); // 5 a minute, shared
    const a = await key({ accountId: polling.id });
    const b = await key({ accountId: polling.id });
    const full = await api().get('/categories').set(KEY, a.key).expect(200);
    expect(remaining(full)).toBe(4);
    const etag = String(full.headers.etag);
    for (const secret of [a.key, b.key, a.key]) {
      const res = await api().get('/categories').set(KEY, secret).set('If-None-Match', etag).expect(304);
      expect(remaining(res)).toBe(4);
    }
    // The next full answer, from the sibling, takes the second of the account's five.
    const next = await api().get('/categories').set(KEY, b.key).set('If-None-Match', '"stale"').expect(200);
    expect(remaining(next)).toBe(3);

    await t.app.get(KeyUsageRecorder).flush();
    const day = async (path: string): Promise<Day[]> =>
      (await api().get(`${path}?from=${today()}&to=${today()}`).set(KEY, admin).expect(200)).body as Day[];
    expect(await day(`/admin/accounts/${polling.id}/usage`)).toEqual([
      { date: today(), requests: 2, refused: 0, bans: 0 },
    ]);
    for (const k of [a, b]) {
      expect(await day(`/admin/api-keys/${k.id}/usage`)).toEqual([{ date: today(), requests: 1, refused: 0, bans: 0 }]);
    }
    const rows = (
      await api().get(`/admin/usage?from=${today()}&to=${today()}&accountId=${polling.id}`).set(KEY, admin).expect(200)
    ).body as Row[];
    expect(rows.map((r) => [r.keyId, r.requests])).toEqual([
      [a.id, 1],
      [b.id, 1],
    ]);
  });

  it('a plan change of the account applies to its keys at once on this instance', async () => {
    const growing = await account({ name: 'Growing', plan: 'pro' });
    const k = await key({ accountId: growing.id });
    expect((await api().get('/categories').set(KEY, k.key).expect(200)).headers['x-ratelimit-limit']).toBe('5');
    await api().patch(`/admin/accounts/${growing.id}`).set(KEY, admin).send({ plan: 'business' }).expect(200);
    const after = await api().get('/categories').set(KEY, k.key).expect(200);
    expect(after.headers['x-ratelimit-limit']).toBe('1000');
    expect(remaining(after)).toBe(998); // the same windows, their counts kept
    expect((await api().get(`/admin/api-keys/${k.id}`).set(KEY, admin).expect(200)).body).toMatchObject({
      plan: 'business',
      accountId: growing.id,
    });
  });
});

describe('accounts over HTTP (/admin/accounts, keys in accounts, usage; e2e)', () => {
  let t: TestApp;
  let admin: string;
  const { api, account, key, patchKey } = adminApi(
    () => t,
    () => admin,
  );

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: '', ...appEnv() });
    await t.reset();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise', { perMinute: 100_000, perDay: 1_000_000 });
  });
  afterAll(() => t?.close());

  it('creates an account (201, Location) and reads, lists, changes it', async () => {
    const res = await api()
      .post('/admin/accounts')
      .set(KEY, admin)
      .send({ name: 'Acme', plan: 'enterprise', limits: { perMinute: 500, perDay: 50_000 }, externalId: 'cus_1' })
      .expect(201);
    const acme = res.body as Account;
    expect(acme).toEqual({
      id: expect.any(Number),
      name: 'Acme',
      plan: 'enterprise',
      limits: { perMinute: 500, perDay: 50_000 },
      externalId: 'cus_1',
      createdAt: expect.any(String),
    });
    expect(res.headers.location).toBe(`/admin/accounts/${acme.id}`);
    expect((await api().get(`/admin/accounts/${acme.id}`).set(KEY, admin).expect(200)).body).toEqual(acme);
    const plain = await account({ name: 'Plain', plan: 'free' });
    expect(plain).not.toHaveProperty('externalId');
    expect(plain).not.toHaveProperty('limits');

    const first = await api().get('/admin/accounts?limit=1').set(KEY, admin).expect(200);
    expect((first.body as Account[]).map((a) => a.id)).toEqual([acme.id]);
    const next = nextLink(first);
    expect(next).not.toBeNull();
    const second = await api()
      .get(next ?? '')
      .set(KEY, admin)
      .expect(200);
    expect((second.body as Account[])[0].id).toBe(plain.id);

    const patched = await api()
      .patch(`/admin/accounts/${acme.id}`)
      .set(KEY, admin)
      .send({ name: 'Acme Ltd', plan: 'pro', externalId: null })
      .expect(200);
    expect(patched.body).toEqual({ ...acme, name: 'Acme Ltd', plan: 'pro', limits: undefined, externalId: undefined });
    expect(patched.body).not.toHaveProperty('limits'); // leaving enterprise drops its limits
  });

  it('refuses a duplicate externalId with 409 ACCOUNT_EXTERNAL_ID_TAKEN, changing nothing', async () => {
    const one = await account({ name: 'One', plan: 'free', externalId: 'dup-1' });
    const two = await account({ name: 'Two', plan: 'free', externalId: 'dup-2' });
    const res = await api()
      .post('/admin/accounts')
      .set(KEY, admin)
      .send({ name: 'Three', plan: 'free', externalId: 'dup-1' });
    expectError(res, 409, 'ACCOUNT_EXTERNAL_ID_TAKEN');
    expect(res.body.message).toContain('dup-1');
    const patch = await api()
      .patch(`/admin/accounts/${two.id}`)
      .set(KEY, admin)
      .send({ name: 'X', externalId: 'dup-1' });
    expectError(patch, 409, 'ACCOUNT_EXTERNAL_ID_TAKEN');
    expect((await api().get(`/admin/accounts/${two.id}`).set(KEY, admin).expect(200)).body).toMatchObject({
      name: 'Two',
      externalId: 'dup-2',
    });
    expect(one.externalId).toBe('dup-1');
  });

  it('answers 404 ACCOUNT_NOT_FOUND for an unknown account, 400 for a bad id or body', async () => {
    for (const send of [
      () => api().get('/admin/accounts/999999').set(KEY, admin),
      () => api().patch('/admin/accounts/999999').set(KEY, admin).send({ name: 'x' }),
      () => api().delete('/admin/accounts/999999').set(KEY, admin),
      () => api().get('/admin/accounts/999999/usage').set(KEY, admin),
    ]) {
      expectError(await send(), 404, 'ACCOUNT_NOT_FOUND');
    }
    expectError(await api().get('/admin/accounts/abc').set(KEY, admin), 400, 'VALIDATION_FAILED');
    for (const body of [
      { plan: 'free' },
      { name: 'x', plan: 'gold' },
      { name: 'x', plan: 'free', limits: { perMinute: 1, perDay: 1 } },
      { name: 'x', plan: 'enterprise' },
      { name: 'x', plan: 'free', extra: true },
      { name: 'x', plan: 'free', externalId: '' },
    ]) {
      expectError(await api().post('/admin/accounts').set(KEY, admin).send(body), 400, 'VALIDATION_FAILED');
    }
  });

  it('is for admin keys only (403 INSUFFICIENT_SCOPE)', async () => {
    const reader = await t.key(['read', 'write']);
    expectError(await api().get('/admin/accounts').set(KEY, reader), 403, 'INSUFFICIENT_SCOPE');
    expectError(
      await api().post('/admin/accounts').set(KEY, reader).send({ name: 'x', plan: 'free' }),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });

  it("gives a key in an account the account's plan and refuses one of its own (422), or a missing account (422)", async () => {
    const acme = await account({ name: 'Plans', plan: 'business' });
    const inside = await key({ accountId: acme.id });
    expect(inside).toMatchObject({ plan: 'business', accountId: acme.id });
    const refusedCreate = await api()
      .post('/admin/api-keys')
      .set(KEY, admin)
      .send({ name: 'x', scopes: ['read'], plan: 'pro', accountId: acme.id });
    expectError(refusedCreate, 422, 'API_KEY_PLAN_FROM_ACCOUNT');
    expectError(await patchKey(inside.id, { plan: 'pro' }), 422, 'API_KEY_PLAN_FROM_ACCOUNT');
    const alone = await key({ plan: 'free' });
    expectError(await patchKey(alone.id, { accountId: acme.id, plan: 'pro' }), 422, 'API_KEY_PLAN_FROM_ACCOUNT');
    expectError(
      await api()
        .post('/admin/api-keys')
        .set(KEY, admin)
        .send({ name: 'x', scopes: ['read'], accountId: 999999 }),
      422,
      'ACCOUNT_NOT_FOUND',
    );
    expectError(await patchKey(alone.id, { accountId: 999999 }), 422, 'ACCOUNT_NOT_FOUND');
    // Nothing changed by the refusals.
    expect((await api().get(`/admin/api-keys/${alone.id}`).set(KEY, admin).expect(200)).body).toMatchObject({
      plan: 'free',
      accountId: null,
    });
    // Without an account a plan is still required.
    expectError(
      await api()
        .post('/admin/api-keys')
        .set(KEY, admin)
        .send({ name: 'x', scopes: ['read'] }),
      400,
      'VALIDATION_FAILED',
    );
    // Leaving the account, a key keeps the account's plan unless given one.
    expect((await patchKey(inside.id, { accountId: null }).expect(200)).body).toMatchObject({
      plan: 'business',
      accountId: null,
    });
    expect((await patchKey(inside.id, { plan: 'pro' }).expect(200)).body).toMatchObject({ plan: 'pro' });
  });

  it("lists an account's keys with GET /admin/api-keys?accountId=", async () => {
    const team = await account({ name: 'Team', plan: 'free' });
    const ids = [(await key({ accountId: team.id })).id, (await key({ accountId: team.id })).id];
    await key({ plan: 'free' });
    const listed = (await api().get(`/admin/api-keys?accountId=${team.id}`).set(KEY, admin).expect(200)).body as Key[];
    expect(listed.map((k) => k.id)).toEqual(ids);
    expect(listed.every((k) => k.accountId === team.id)).toBe(true);
    const all = (await api().get('/admin/api-keys?limit=100').set(KEY, admin).expect(200)).body as Key[];
    expect(all.some((k) => k.accountId === null)).toBe(true);
    expectError(await api().get('/admin/api-keys?accountId=x').set(KEY, admin), 400, 'VALIDATION_FAILED');
  });

  it('deletes an account only without live keys (409 ACCOUNT_HAS_LIVE_KEYS), its revoked keys left in none', async () => {
    const gone = await account({ name: 'Gone', plan: 'free' });
    const k = await key({ accountId: gone.id });
    const refused = await api().delete(`/admin/accounts/${gone.id}`).set(KEY, admin);
    expectError(refused, 409, 'ACCOUNT_HAS_LIVE_KEYS');
    await api().get(`/admin/accounts/${gone.id}`).set(KEY, admin).expect(200);
    await api().delete(`/admin/api-keys/${k.id}`).set(KEY, admin).expect(204);
    await api().delete(`/admin/accounts/${gone.id}`).set(KEY, admin).expect(204);
    expectError(await api().get(`/admin/accounts/${gone.id}`).set(KEY, admin), 404, 'ACCOUNT_NOT_FOUND');
    expect((await api().get(`/admin/api-keys/${k.id}`).set(KEY, admin).expect(200)).body).toMatchObject({
      accountId: null,
      revokedAt: expect.any(String),
    });
  });

  it("reports an account's usage per day and filters the export by account, attributed as the requests were made", async () => {
    const billed = await account({ name: 'Billed', plan: 'free' });
    const a = await key({ accountId: billed.id });
    const b = await key({ accountId: billed.id });
    const loose = await key({ plan: 'free' });
    for (const secret of [a.key, a.key, b.key, loose.key]) await api().get('/categories').set(KEY, secret).expect(200);
    await t.app.get(KeyUsageRecorder).flush();
    // b leaves the account: what it sends now is its own, not the account's.
    await patchKey(b.id, { accountId: null }).expect(200);
    await api().get('/categories').set(KEY, b.key).expect(200);
    await t.app.get(KeyUsageRecorder).flush();

    const usage = await api().get(`/admin/accounts/${billed.id}/usage?from=${today()}&to=${today()}`).set(KEY, admin);
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual([{ date: today(), requests: 3, refused: 0, bans: 0 }]);
    const range = await api().get(`/admin/accounts/${billed.id}/usage`).set(KEY, admin).expect(200);
    expect((range.body as Day[]).length).toBe(30);

    const rows = (
      await api().get(`/admin/usage?from=${today()}&to=${today()}&accountId=${billed.id}`).set(KEY, admin).expect(200)
    ).body as Row[];
    expect(rows).toEqual([
      { date: today(), keyId: a.id, accountId: billed.id, requests: 2, refused: 0, bans: 0 },
      { date: today(), keyId: b.id, accountId: billed.id, requests: 1, refused: 0, bans: 0 },
    ]);
    const every = (await api().get(`/admin/usage?from=${today()}&to=${today()}`).set(KEY, admin).expect(200))
      .body as Row[];
    expect(every.filter((r) => r.keyId === b.id)).toEqual([
      { date: today(), keyId: b.id, accountId: null, requests: 1, refused: 0, bans: 0 },
      { date: today(), keyId: b.id, accountId: billed.id, requests: 1, refused: 0, bans: 0 },
    ]);
    expect(every.find((r) => r.keyId === loose.id)).toMatchObject({ accountId: null, requests: 1 });
    // The key's own usage counts both.
    expect((await api().get(`/admin/api-keys/${b.id}/usage?from=${today()}`).set(KEY, admin).expect(200)).body).toEqual(
      [{ date: today(), requests: 2, refused: 0, bans: 0 }],
    );

    const csv = await api()
      .get(`/admin/usage?from=${today()}&to=${today()}&accountId=${billed.id}`)
      .set(KEY, admin)
      .set('Accept', 'text/csv')
      .expect(200);
    expect(csv.text).toBe(
      `date,keyId,accountId,requests,refused,bans\r\n` +
        `${today()},${a.id},${billed.id},2,0,0\r\n${today()},${b.id},${billed.id},1,0,0\r\n`,
    );
    // Paging walks the rows of one key in two accounts without losing one.
    const paged: Row[] = [];
    let url: string | null = `/admin/usage?from=${today()}&to=${today()}&limit=1`;
    while (url) {
      const page: request.Response = await api().get(url).set(KEY, admin).expect(200);
      paged.push(...(page.body as Row[]));
      url = nextLink(page);
    }
    expect(paged).toEqual(every);
    expectError(await api().get('/admin/usage?accountId=0').set(KEY, admin), 400, 'VALIDATION_FAILED');
  });
});

/**
 * Two instances sharing counters in Redis: an account's window is shared across both, and a
 * key taken out of the account on one is counted alone on the other within the key cache's 10 s.
 */
const REDIS_URL = process.env.REDIS_URL;
(REDIS_URL ? describe : describe.skip)('accounts on Redis: two instances (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  const [, redisEnv] = STORAGES[1] ?? ['redis', () => ({})];
  const { account, key, patchKey } = adminApi(
    () => a,
    () => admin,
  );

  beforeAll(async () => {
    const env = { ...appEnv(), ...redisEnv() };
    a = await createTestApp(env);
    b = await createTestApp(env);
    await a.reset();
    admin = await a.key(['read', 'write', 'admin'], 'enterprise', { perMinute: 100_000, perDay: 1_000_000 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const minuteLeft = async (app: TestApp, secret: string): Promise<number> => {
    const res = await request(app.http).get('/rate-limit').set(KEY, secret).expect(200);
    return (res.body as { windows: Array<{ remaining: number }> }).windows[0].remaining;
  };

  it('shares an account window over both, and a key moved out on one counts alone on the other within 10 s', async () => {
    const acme = await account({ name: 'Acme', plan: 'free' });
    const one = await key({ accountId: acme.id });
    const two = await key({ accountId: acme.id });
    const results = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        request(i % 2 === 0 ? a.http : b.http)
          .get('/categories')
          .set(KEY, i % 4 < 2 ? one.key : two.key),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(60);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await minuteLeft(b, two.key)).toBe(0);

    await patchKey(two.id, { accountId: null }).expect(200);
    // At once where the change was made; on the other instance once its cached key is looked up again.
    expect(await minuteLeft(a, two.key)).toBe(60);
    const took = await eventually(async () => (await minuteLeft(b, two.key)) === 60, 12_000);
    expect(took).toBeLessThanOrEqual(11_000);
    await request(b.http).get('/categories').set(KEY, two.key).expect(200);
    expectError(await request(b.http).get('/categories').set(KEY, one.key), 429, 'RATE_LIMIT_EXCEEDED');
  }, 30_000);
});
