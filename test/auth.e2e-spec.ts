import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { expectError, followPages, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

interface IssuedKey {
  id: number;
  name: string;
  prefix: string;
  plan: string;
  scopes: string[];
  limits?: { perMinute: number; perDay: number };
  createdAt: string;
  revokedAt?: string;
  key: string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('API keys, scopes and admin (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let writer: string;
  let reader: string;
  let categoryId: number;

  const api = () => request(t.http);

  async function issue(body: Record<string, unknown>): Promise<IssuedKey> {
    const res = await api().post('/admin/api-keys').set(KEY, admin).send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    return res.body as IssuedKey;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise');
    writer = await t.key(['read', 'write'], 'enterprise');
    reader = await t.key(['read'], 'enterprise');
    const category = await api().post('/categories').set(KEY, writer).send({ name: 'Auth' }).expect(201);
    categoryId = (category.body as { id: number }).id;
  });
  afterAll(() => t.close());

  describe('authentication', () => {
    it.each([
      ['GET', '/pets'],
      ['POST', '/pets'],
      ['GET', '/categories'],
      ['DELETE', '/categories/1'],
      ['GET', '/admin/api-keys'],
      ['GET', '/admin/plans'],
    ])('%s %s without a key answers 401 UNAUTHENTICATED', async (method, path) => {
      const res = await api()[method.toLowerCase() as 'get'](path);
      expectError(res, 401, 'UNAUTHENTICATED');
    });

    it('answers 401 INVALID_API_KEY for a key it never issued', async () => {
      const forged = `psk_${randomBytes(32).toString('base64url')}`;
      expectError(await api().get('/pets').set(KEY, forged), 401, 'INVALID_API_KEY');
      expectError(await api().get('/pets').set(KEY, 'not even a key'), 401, 'INVALID_API_KEY');
      expectError(
        await api()
          .get('/pets')
          .set(KEY, `psk_${'x'.repeat(5000)}`),
        401,
        'INVALID_API_KEY',
      );
    });

    it('does not take the key from the query string', async () => {
      expectError(await api().get(`/pets?api_key=${encodeURIComponent(reader)}`), 401, 'UNAUTHENTICATED');
    });
  });

  describe('scopes', () => {
    it('lets a read key read', async () => {
      await api().get('/pets').set(KEY, reader).expect(200);
      await api().get('/categories').set(KEY, reader).expect(200);
      await api().get(`/categories/${categoryId}`).set(KEY, reader).expect(200);
    });

    it.each([
      ['POST', '/pets', () => ({ name: 'Nope', categoryId })],
      ['PUT', '/pets/1', () => ({ name: 'Nope', categoryId })],
      ['PATCH', '/pets/1', () => ({ name: 'Nope' })],
      ['DELETE', '/pets/1', () => undefined],
      ['POST', '/categories', () => ({ name: 'Nope' })],
      ['PUT', '/categories/1', () => ({ name: 'Nope' })],
      ['DELETE', '/categories/1', () => undefined],
    ])('refuses %s %s to a read-only key with 403 INSUFFICIENT_SCOPE', async (method, path, body) => {
      const call = api()[method.toLowerCase() as 'post'](path).set(KEY, reader);
      const payload = body();
      const res = payload === undefined ? await call : await call.send(payload);
      expectError(res, 403, 'INSUFFICIENT_SCOPE');
      expect((res.body as { message: string }).message).toMatch(/\bwrite\b/);
    });

    it('changes nothing when it refuses a write', async () => {
      const before = await api().get('/categories?limit=100').set(KEY, reader).expect(200);
      await api().post('/categories').set(KEY, reader).send({ name: 'Sneaky' }).expect(403);
      const after = await api().get('/categories?limit=100').set(KEY, reader).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('refuses reads to a key without the read scope', async () => {
      const writeOnly = await t.key(['write'], 'enterprise');
      expectError(await api().get('/pets').set(KEY, writeOnly), 403, 'INSUFFICIENT_SCOPE');
      await api().post('/categories').set(KEY, writeOnly).send({ name: 'Write only' }).expect(201);
    });

    it.each([
      ['GET', '/admin/api-keys'],
      ['POST', '/admin/api-keys'],
      ['PATCH', '/admin/api-keys/1'],
      ['DELETE', '/admin/api-keys/1'],
      ['GET', '/admin/plans'],
    ])('refuses %s %s to a read/write key with 403 INSUFFICIENT_SCOPE', async (method, path) => {
      const call = api()[method.toLowerCase() as 'post'](path).set(KEY, writer);
      const res = method === 'POST' || method === 'PATCH' ? await call.send({ name: 'x', plan: 'free' }) : await call;
      expectError(res, 403, 'INSUFFICIENT_SCOPE');
      expect((res.body as { message: string }).message).toMatch(/\badmin\b/);
    });
  });

  describe('public routes', () => {
    it('serves /openapi.json without a key', async () => {
      const res = await api().get('/openapi.json').expect(200);
      expect(res.headers['content-type']).toMatch(/json/);
      expect((res.body as { openapi: string }).openapi).toBe('3.0.3');
    });

    it('serves /openapi.yaml without a key', async () => {
      const res = await api().get('/openapi.yaml').expect(200);
      expect(res.text).toMatch(/^openapi: ['"]?3\.0\.3/m);
    });

    it('serves the Swagger UI at /docs without a key', async () => {
      const res = await api().get('/docs').expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toMatch(/swagger/i);
    });
  });

  describe('POST /admin/api-keys', () => {
    it('issues a key shown once: psk_ prefix, >= 128 bits, id, Location', async () => {
      const res = await api()
        .post('/admin/api-keys')
        .set(KEY, admin)
        .send({ name: 'mobile app', plan: 'pro', scopes: ['read'] })
        .expect(201);
      const issued = res.body as IssuedKey;
      expect(issued).toEqual(
        expect.objectContaining({ id: expect.any(Number), name: 'mobile app', plan: 'pro', scopes: ['read'] }),
      );
      expect(issued.key).toMatch(/^psk_[A-Za-z0-9_-]+$/);
      // base64url carries 6 bits a character: at least 22 random characters for 128 bits.
      expect(issued.key.length - 'psk_'.length).toBeGreaterThanOrEqual(22);
      expect(issued.limits).toBeUndefined();
      expect(res.headers.location).toBe(`/admin/api-keys/${issued.id}`);
      expect(Date.parse(issued.createdAt)).not.toBeNaN();
    });

    it('issues a different key every time', async () => {
      const keys = new Set<string>();
      for (let i = 0; i < 5; i++) keys.add((await issue({ name: `k${i}`, plan: 'free', scopes: ['read'] })).key);
      expect(keys.size).toBe(5);
    });

    it('lets the new key work at once, within its scopes', async () => {
      const issued = await issue({ name: 'fresh', plan: 'free', scopes: ['read'] });
      await api().get('/pets').set(KEY, issued.key).expect(200);
      expectError(
        await api().post('/categories').set(KEY, issued.key).send({ name: 'Fresh' }),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });

    it('stores only the SHA-256 of the key', async () => {
      const issued = await issue({ name: 'hashed', plan: 'business', scopes: ['read', 'write'] });
      const rows: Array<Record<string, unknown>> = await t.db.query('SELECT * FROM api_keys WHERE id = $1', [
        issued.id,
      ]);
      expect(rows).toHaveLength(1);
      const stored = Object.values(rows[0]).map((value) =>
        value instanceof Date ? value.toISOString() : JSON.stringify(value),
      );
      const secretPart = issued.key.slice(12);
      for (const value of stored) {
        expect(value).not.toContain(issued.key);
        expect(value).not.toContain(secretPart);
      }
      expect(stored.join(' ')).toContain(sha256(issued.key));
    });

    it('requires limits for the enterprise plan and allows them for no other', async () => {
      const limits = { perMinute: 500, perDay: 50_000 };
      const enterprise = await issue({ name: 'big', plan: 'enterprise', scopes: ['read'], limits });
      expect(enterprise.limits).toEqual(limits);
      const noLimits = await api()
        .post('/admin/api-keys')
        .set(KEY, admin)
        .send({ name: 'big', plan: 'enterprise', scopes: ['read'] });
      expectError(noLimits, 400, 'VALIDATION_FAILED');
      expect((noLimits.body as { message: string }).message).toMatch(/\blimits\b/);
      for (const plan of ['free', 'pro', 'business']) {
        const res = await api()
          .post('/admin/api-keys')
          .set(KEY, admin)
          .send({ name: 'x', plan, scopes: ['read'], limits });
        expectError(res, 400, 'VALIDATION_FAILED');
        expect((res.body as { message: string }).message).toMatch(/\blimits\b/);
      }
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a missing name', { plan: 'free', scopes: ['read'] }, 'name'],
      ['an empty name', { name: '', plan: 'free', scopes: ['read'] }, 'name'],
      ['an unknown plan', { name: 'x', plan: 'gold', scopes: ['read'] }, 'plan'],
      ['no scopes', { name: 'x', plan: 'free', scopes: [] }, 'scopes'],
      ['an unknown scope', { name: 'x', plan: 'free', scopes: ['root'] }, 'scopes'],
      ['scopes as a string', { name: 'x', plan: 'free', scopes: 'read' }, 'scopes'],
      ['an unknown field', { name: 'x', plan: 'free', scopes: ['read'], owner: 'me' }, 'owner'],
      [
        'limits of zero',
        { name: 'x', plan: 'enterprise', scopes: ['read'], limits: { perMinute: 0, perDay: 1 } },
        'perMinute',
      ],
      [
        'fractional limits',
        { name: 'x', plan: 'enterprise', scopes: ['read'], limits: { perMinute: 1, perDay: 1.5 } },
        'perDay',
      ],
      ['limits that are not an object', { name: 'x', plan: 'enterprise', scopes: ['read'], limits: 10 }, 'limits'],
      ['limits as an empty array', { name: 'x', plan: 'enterprise', scopes: ['read'], limits: [] }, 'limits'],
      [
        'limits as an array of limits',
        { name: 'x', plan: 'enterprise', scopes: ['read'], limits: [{ perMinute: 10, perDay: 100 }] },
        'limits',
      ],
      [
        'a per-day limit below the per-minute one',
        { name: 'x', plan: 'enterprise', scopes: ['read'], limits: { perMinute: 500, perDay: 100 } },
        'perDay',
      ],
    ])('refuses %s with 400 naming the field', async (_, body, field) => {
      const res = await api().post('/admin/api-keys').set(KEY, admin).send(body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(new RegExp(`\\b${field}\\b`));
    });
  });

  describe('GET /admin/api-keys', () => {
    it('lists keys without their secret', async () => {
      const issued = await issue({ name: 'listed', plan: 'pro', scopes: ['read', 'write'] });
      const pages = await followPages(t.http, admin, '/admin/api-keys?limit=5');
      const all = pages.flatMap((page) => page.body as Array<Record<string, unknown>>);
      const ids = all.map((k) => k.id as number);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(new Set(ids).size).toBe(ids.length);
      const { key: secret, ...listed } = issued;
      expect(all.find((k) => k.id === issued.id)).toEqual(listed);
      for (const item of all) expect(item).not.toHaveProperty('key');
      expect(pages.map((page) => page.text).join('')).not.toContain(secret);
      expect(secret.startsWith(issued.prefix)).toBe(true);
    });
  });

  describe('DELETE /admin/api-keys/{keyId}', () => {
    it('revokes a key at once: 401 INVALID_API_KEY on its next request', async () => {
      const issued = await issue({ name: 'doomed', plan: 'free', scopes: ['read'] });
      await api().get('/pets').set(KEY, issued.key).expect(200);
      await api().delete(`/admin/api-keys/${issued.id}`).set(KEY, admin).expect(204);
      expectError(await api().get('/pets').set(KEY, issued.key), 401, 'INVALID_API_KEY');
      const list = await followPages(t.http, admin, '/admin/api-keys?limit=100');
      const listed = list.flatMap((page) => page.body as IssuedKey[]).find((k) => k.id === issued.id);
      expect(Date.parse(listed?.revokedAt ?? '')).not.toBeNaN();
    });

    it('answers 404 API_KEY_NOT_FOUND for a key that does not exist', async () => {
      expectError(await api().delete('/admin/api-keys/987654321').set(KEY, admin), 404, 'API_KEY_NOT_FOUND');
      expectError(await api().delete('/admin/api-keys/abc').set(KEY, admin), 400, 'VALIDATION_FAILED');
    });
  });

  describe('PATCH /admin/api-keys/{keyId}', () => {
    it('changes scopes with immediate effect, both ways', async () => {
      const issued = await issue({ name: 'promoted', plan: 'free', scopes: ['read'] });
      const denied = await api().post('/categories').set(KEY, issued.key).send({ name: 'Promoted 1' });
      expectError(denied, 403, 'INSUFFICIENT_SCOPE');
      const res = await api()
        .patch(`/admin/api-keys/${issued.id}`)
        .set(KEY, admin)
        .send({ scopes: ['read', 'write'] })
        .expect(200);
      expect((res.body as IssuedKey).scopes.sort()).toEqual(['read', 'write']);
      expect(res.body).not.toHaveProperty('key');
      await api().post('/categories').set(KEY, issued.key).send({ name: 'Promoted 1' }).expect(201);

      await api()
        .patch(`/admin/api-keys/${issued.id}`)
        .set(KEY, admin)
        .send({ scopes: ['read'] })
        .expect(200);
      expectError(
        await api().post('/categories').set(KEY, issued.key).send({ name: 'Promoted 2' }),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });

    it('changes the plan, keeping what is not mentioned', async () => {
      const issued = await issue({ name: 'upgraded', plan: 'free', scopes: ['read', 'write'] });
      const res = await api()
        .patch(`/admin/api-keys/${issued.id}`)
        .set(KEY, admin)
        .send({ plan: 'business' })
        .expect(200);
      expect(res.body).toEqual(expect.objectContaining({ id: issued.id, plan: 'business', name: 'upgraded' }));
      expect((res.body as IssuedKey).scopes.sort()).toEqual(['read', 'write']);
    });

    it('allows limits only together with the enterprise plan', async () => {
      const issued = await issue({ name: 'tiered', plan: 'pro', scopes: ['read'] });
      const limits = { perMinute: 1000, perDay: 20_000 };
      const onPro = await api().patch(`/admin/api-keys/${issued.id}`).set(KEY, admin).send({ limits });
      expectError(onPro, 400, 'VALIDATION_FAILED');
      const noLimits = await api().patch(`/admin/api-keys/${issued.id}`).set(KEY, admin).send({ plan: 'enterprise' });
      expectError(noLimits, 400, 'VALIDATION_FAILED');

      const up = await api()
        .patch(`/admin/api-keys/${issued.id}`)
        .set(KEY, admin)
        .send({ plan: 'enterprise', limits })
        .expect(200);
      expect(up.body).toEqual(expect.objectContaining({ plan: 'enterprise', limits }));

      const down = await api().patch(`/admin/api-keys/${issued.id}`).set(KEY, admin).send({ plan: 'free' }).expect(200);
      expect((down.body as IssuedKey).plan).toBe('free');
      expect(down.body).not.toHaveProperty('limits');
    });

    it('refuses limits of the wrong shape or order and keeps the key as it was', async () => {
      const limits = { perMinute: 100, perDay: 1_000 };
      const issued = await issue({ name: 'shaped', plan: 'enterprise', scopes: ['read'], limits });
      for (const body of [
        { limits: [] },
        { limits: [{ perMinute: 10, perDay: 100 }] },
        { limits: { perMinute: 500, perDay: 100 } },
        { plan: 'enterprise', limits: [] },
      ]) {
        const res = await api().patch(`/admin/api-keys/${issued.id}`).set(KEY, admin).send(body);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect((res.body as { message: string }).message).toMatch(/\blimits\b/);
      }
      const keys = await followPages(t.http, admin, '/admin/api-keys?limit=100');
      const stored = keys.flatMap((page) => page.body as IssuedKey[]).find((k) => k.id === issued.id);
      expect(stored).toEqual(expect.objectContaining({ plan: 'enterprise', limits }));
    });

    it('validates the body and the id', async () => {
      const issued = await issue({ name: 'strict', plan: 'free', scopes: ['read'] });
      for (const body of [
        { plan: 'gold' },
        { scopes: [] },
        { scopes: ['superuser'] },
        { name: 'renamed' },
        { plan: null },
      ]) {
        expectError(
          await api().patch(`/admin/api-keys/${issued.id}`).set(KEY, admin).send(body),
          400,
          'VALIDATION_FAILED',
        );
      }
      expectError(
        await api().patch('/admin/api-keys/987654321').set(KEY, admin).send({ plan: 'pro' }),
        404,
        'API_KEY_NOT_FOUND',
      );
    });
  });

  describe('GET /admin/plans', () => {
    it('shows the effective plan table', async () => {
      const res = await api().get('/admin/plans').set(KEY, admin).expect(200);
      const plans = res.body as Array<{ name: string; perMinute?: number; perDay?: number }>;
      expect(plans).toHaveLength(4);
      expect(plans).toEqual(
        expect.arrayContaining([
          { name: 'free', perMinute: 60, perDay: 1000 },
          { name: 'pro', perMinute: 300, perDay: 10000 },
          { name: 'business', perMinute: 1000, perDay: 100000 },
        ]),
      );
      const enterprise = plans.find((p) => p.name === 'enterprise');
      expect(enterprise).toBeDefined();
      expect(enterprise?.perMinute).toBeUndefined();
      expect(enterprise?.perDay).toBeUndefined();
    });
  });
});
