import request from 'supertest';
import { KeyUsageRecorder } from '../src/api-keys/index.js';
import { expectError, KEY } from './support/http.js';
import { rateLimitStorages } from './support/rate-limit-storages.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A key's lifecycle over HTTP (issue 42): expiry, key detail with its last use as of
 * the usage flush, a key's live windows read without counting, address rules behind
 * a trusted proxy, and rolls with an overlap. Usage is flushed explicitly (the
 * periodic flush is off), so nothing waits on a timer; the roll and the expiry wait
 * on the clock (about 2 s each).
 */
const STORAGES = rateLimitStorages('key-lifecycle-e2e');

interface Window {
  name: string;
  limit: number;
  remaining: number;
  reset: number;
}
interface KeyBody {
  id: number;
  prefix: string;
  expiresAt?: string;
  allowedAddresses?: string[];
  lastUsedAt?: string;
  previousKeyExpiresAt?: string;
  previousKeyLastUsedAt?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(STORAGES)('API key lifecycle on the %s storage (e2e)', (_name, storageEnv) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ ...storageEnv(), TRUST_PROXY: 'loopback', USAGE_FLUSH_INTERVAL_MS: '0' });
    await t.reset();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise');
  });
  afterAll(async () => {
    await t?.close();
  });

  const adminCall = () => ({
    get: (path: string) => request(t.http).get(path).set(KEY, admin),
    post: (path: string, body?: object) => {
      const req = request(t.http).post(path).set(KEY, admin);
      return body ? req.send(body) : req;
    },
    patch: (path: string, body: object) => request(t.http).patch(path).set(KEY, admin).send(body),
  });

  async function issue(extra: object = {}): Promise<{ id: number; secret: string }> {
    const res = await adminCall()
      .post('/admin/api-keys', { name: 'lifecycle', plan: 'free', scopes: ['read'], ...extra })
      .expect(201);
    return { id: res.body.id as number, secret: res.body.key as string };
  }

  const categories = (secret: string, from?: string) => {
    const req = request(t.http).get('/categories').set(KEY, secret);
    return from ? req.set('X-Forwarded-For', from) : req;
  };

  async function windowsOf(id: number): Promise<Window[]> {
    return (await adminCall().get(`/admin/api-keys/${id}/rate-limit`).expect(200)).body.windows as Window[];
  }

  async function requestsToday(id: number): Promise<number> {
    const today = new Date().toISOString().slice(0, 10);
    const res = await adminCall().get(`/admin/api-keys/${id}/usage?from=${today}&to=${today}`).expect(200);
    return res.body[0].requests as number;
  }

  describe('key detail and last use', () => {
    it('answers the key at the Location of its creation, lastUsedAt appearing with the usage flush', async () => {
      const created = await adminCall()
        .post('/admin/api-keys', { name: 'detail', plan: 'free', scopes: ['read'] })
        .expect(201);
      const { id } = created.body as KeyBody;
      const detail = await adminCall().get(created.headers.location).expect(200);
      expect(detail.body).toMatchObject({ id, name: 'detail', plan: 'free', scopes: ['read'] });
      expect(detail.body).not.toHaveProperty('key');
      expect(detail.body).not.toHaveProperty('lastUsedAt');

      const before = Date.now();
      await categories(created.body.key as string).expect(200);
      // Nothing is written per request: the last use appears with the flush.
      expect((await adminCall().get(`/admin/api-keys/${id}`).expect(200)).body).not.toHaveProperty('lastUsedAt');
      await t.app.get(KeyUsageRecorder).flush();
      const used = (await adminCall().get(`/admin/api-keys/${id}`).expect(200)).body as KeyBody;
      expect(Date.parse(used.lastUsedAt!)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(used.lastUsedAt!)).toBeLessThanOrEqual(Date.now());
      const listed = (await adminCall().get('/admin/api-keys?limit=100').expect(200)).body as KeyBody[];
      expect(listed.find((k) => k.id === id)?.lastUsedAt).toBe(used.lastUsedAt);
    });

    it('answers 404 API_KEY_NOT_FOUND for a missing key, on every new route', async () => {
      expectError(await adminCall().get('/admin/api-keys/999999'), 404, 'API_KEY_NOT_FOUND');
      expectError(await adminCall().get('/admin/api-keys/999999/rate-limit'), 404, 'API_KEY_NOT_FOUND');
      expectError(await adminCall().post('/admin/api-keys/999999/roll', {}), 404, 'API_KEY_NOT_FOUND');
      expectError(await adminCall().post('/admin/api-keys/999999/roll/end-overlap'), 404, 'API_KEY_NOT_FOUND');
    });
  });

  describe("a key's live windows", () => {
    it('shows what GET /rate-limit shows the key, without counting against it', async () => {
      const { id, secret } = await issue();
      await categories(secret).expect(200);
      const first = await windowsOf(id);
      for (let i = 0; i < 5; i++) expect(await windowsOf(id)).toEqual(first);
      const own = await request(t.http).get('/rate-limit').set(KEY, secret).expect(200);
      expect(own.body.windows).toEqual(first);
      expect(first.map((w) => w.limit - w.remaining)).toEqual([1, 1]);
      await categories(secret).expect(200);
      expect((await windowsOf(id)).map((w) => w.limit - w.remaining)).toEqual([2, 2]);
    });
  });

  describe('expiry', () => {
    it('answers 401 API_KEY_EXPIRED after expiresAt, though the key is cached', async () => {
      const expiresAt = new Date(Date.now() + 1_500);
      const { id, secret } = await issue({ expiresAt: expiresAt.toISOString() });
      expect((await adminCall().get(`/admin/api-keys/${id}`).expect(200)).body.expiresAt).toBe(expiresAt.toISOString());
      await categories(secret).expect(200);
      await sleep(expiresAt.getTime() - Date.now() + 50);
      expectError(await categories(secret), 401, 'API_KEY_EXPIRED');
      // Removing the expiry brings the key back.
      await adminCall().patch(`/admin/api-keys/${id}`, { expiresAt: null }).expect(200);
      await categories(secret).expect(200);
    });

    it('refuses an expiry in the past or not a date-time with 400, issuing nothing', async () => {
      const before = (await adminCall().get('/admin/api-keys?limit=100').expect(200)).body.length as number;
      const past = { name: 'x', plan: 'free', scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' };
      expectError(await adminCall().post('/admin/api-keys', past), 400, 'VALIDATION_FAILED');
      const notDate = { ...past, expiresAt: 'tomorrow' };
      expectError(await adminCall().post('/admin/api-keys', notDate), 400, 'VALIDATION_FAILED');
      expect((await adminCall().get('/admin/api-keys?limit=100').expect(200)).body).toHaveLength(before);
    });
  });

  describe('address rules (TRUST_PROXY)', () => {
    it('serves the allowed addresses; elsewhere 403, counted against the address and not the key', async () => {
      const { id, secret } = await issue({ allowedAddresses: ['203.0.113.0/24', '2001:db8:1::/48'] });
      expect((await adminCall().get(`/admin/api-keys/${id}`).expect(200)).body.allowedAddresses).toEqual([
        '203.0.113.0/24',
        '2001:db8:1::/48',
      ]);
      await categories(secret, '203.0.113.9').expect(200);
      await categories(secret, '2001:db8:1:2::3').expect(200);

      const refused = await categories(secret, '198.51.100.77');
      expectError(refused, 403, 'API_KEY_ADDRESS_NOT_ALLOWED');
      // Counted as a request without a valid key from that address: the next one from there has one less.
      const remaining = Number(refused.headers['x-ratelimit-remaining']);
      const anonymous = await request(t.http).get('/categories').set('X-Forwarded-For', '198.51.100.77');
      expect(Number(anonymous.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
      // Not against the key: only its two served requests.
      expect((await windowsOf(id)).map((w) => w.limit - w.remaining)).toEqual([2, 2]);
      await t.app.get(KeyUsageRecorder).flush();
      expect(await requestsToday(id)).toBe(2);
    });

    it('refuses what is not an address or CIDR range with 400; null lifts the rule', async () => {
      const { id, secret } = await issue({ allowedAddresses: ['203.0.113.0/24'] });
      for (const bad of [['example.com'], ['10.0.0.0/33'], [], 'not-a-list']) {
        const res = await adminCall().patch(`/admin/api-keys/${id}`, { allowedAddresses: bad });
        expectError(res, 400, 'VALIDATION_FAILED');
      }
      expectError(await categories(secret, '192.0.2.1'), 403, 'API_KEY_ADDRESS_NOT_ALLOWED');
      await adminCall().patch(`/admin/api-keys/${id}`, { allowedAddresses: null }).expect(200);
      await categories(secret, '192.0.2.1').expect(200);
    });
  });

  describe('rotation', () => {
    it('rolls with a 2 s overlap: old secret until then, then API_KEY_EXPIRED; new throughout; usage continuous', async () => {
      const { id, secret: old } = await issue();
      await categories(old).expect(200);
      await categories(old).expect(200);

      const res = await adminCall().post(`/admin/api-keys/${id}/roll`, { overlapSeconds: 2 }).expect(200);
      const rolled = res.body as { id: number; key: string; previousKeyExpiresAt: string };
      expect(Object.keys(rolled).sort()).toEqual(['id', 'key', 'previousKeyExpiresAt']);
      expect(rolled.id).toBe(id);
      expect(rolled.key).toMatch(/^psk_/);
      expect(rolled.key).not.toBe(old);
      const ends = Date.parse(rolled.previousKeyExpiresAt);
      expect(ends - Date.now()).toBeGreaterThan(1_000);
      expect(ends - Date.now()).toBeLessThanOrEqual(2_000);

      let served = 2;
      while (Date.now() < ends - 300) {
        await categories(old).expect(200);
        await categories(rolled.key).expect(200);
        served += 2;
        await sleep(200);
      }
      await sleep(ends - Date.now() + 50);
      expectError(await categories(old), 401, 'API_KEY_EXPIRED');
      await categories(rolled.key).expect(200);
      served += 1;

      // One key: its windows and usage count both secrets' requests, before and after the roll.
      expect((await windowsOf(id)).map((w) => w.limit - w.remaining)).toEqual([served, served]);
      await t.app.get(KeyUsageRecorder).flush();
      expect(await requestsToday(id)).toBe(served);
      const detail = (await adminCall().get(`/admin/api-keys/${id}`).expect(200)).body as KeyBody;
      expect(detail.prefix).toBe(rolled.key.slice(0, 12));
      expect(detail.previousKeyExpiresAt).toBe(rolled.previousKeyExpiresAt);
      expect(Date.parse(detail.previousKeyLastUsedAt!)).toBeLessThan(ends);
      expect(Date.parse(detail.lastUsedAt!)).toBeGreaterThanOrEqual(ends);
    });

    it('defaults to a day of overlap; end-overlap stops the previous secret at once; a second roll ends the oldest', async () => {
      const { id, secret: first } = await issue();
      const second = (await adminCall().post(`/admin/api-keys/${id}/roll`).expect(200)).body as {
        key: string;
        previousKeyExpiresAt: string;
      };
      const overlap = Date.parse(second.previousKeyExpiresAt) - Date.now();
      expect(overlap).toBeGreaterThan(86_400_000 - 5_000);
      await categories(first).expect(200);

      const third = (await adminCall().post(`/admin/api-keys/${id}/roll`, { overlapSeconds: 600 }).expect(200))
        .body as { key: string };
      expectError(await categories(first), 401, 'INVALID_API_KEY');
      await categories(second.key).expect(200);
      await categories(third.key).expect(200);

      await adminCall().post(`/admin/api-keys/${id}/roll/end-overlap`).expect(204);
      const ended = await adminCall().get(`/admin/api-keys/${id}`).expect(200);
      expect(Date.parse(ended.body.previousKeyExpiresAt as string)).toBeLessThanOrEqual(Date.now());
      expectError(await categories(second.key), 401, 'API_KEY_EXPIRED');
      await categories(third.key).expect(200);
    });

    it('is for admins only, and refuses an overlap beyond 30 days', async () => {
      const { id, secret } = await issue();
      const own = await request(t.http).post(`/admin/api-keys/${id}/roll`).set(KEY, secret).send({});
      expectError(own, 403, 'INSUFFICIENT_SCOPE');
      for (const overlapSeconds of [-1, 30 * 86_400 + 1, 1.5, '60']) {
        const res = await adminCall().post(`/admin/api-keys/${id}/roll`, { overlapSeconds });
        expectError(res, 400, 'VALIDATION_FAILED');
      }
      await categories(secret).expect(200);
      await adminCall().post(`/admin/api-keys/${id}/roll`, { overlapSeconds: 0 }).expect(200);
      expectError(await categories(secret), 401, 'API_KEY_EXPIRED');
    });
  });
});
