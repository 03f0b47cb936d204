import { SYSTEM } from '../src/audit/index.js';
import { Controller, Get, Module } from '@nestjs/common';
import { minutes, Throttle } from '@nestjs/throttler';
import { Public } from '@petstore/auth';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { KeyUsageRecorder } from '../src/api-keys/index.js';
import { expectError, KEY } from './support/http.js';
import { rateLimitStorages } from './support/rate-limit-storages.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * Bans an administrator can see and lift (GET /admin/bans, DELETE /admin/bans/addresses)
 * and cheap polling (a conditional GET answered 304 is not charged), on the in-process
 * storage and on Redis when REDIS_URL is set.
 */

/** A route whose own limit blocks for five minutes from its first refusal. */
@Controller('blocking')
@Public()
class BlockingController {
  @Get()
  @Throttle({ export: { limit: 1, ttl: minutes(1), blockDuration: minutes(5) } })
  get(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [BlockingController] })
class BlockingModule {}

const STORAGES = rateLimitStorages('rl-bans');

// A free plan of 3 a minute, banned after more than 1 × 3 refusals (the 4th).
function appEnv(): Record<string, string> {
  const file = temporaryPlansFile(
    `plans:
  free: { perMinute: 3, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
`,
  );
  return { PLANS_FILE: file, BAN_THRESHOLD_MULTIPLIER: '1', TRUST_PROXY: 'loopback', PLANS_WATCH_INTERVAL_MS: '0' };
}

interface Ban {
  kind: 'key' | 'address';
  keyId?: number;
  address?: string;
  until: string;
  cause: string;
  limit?: string;
}

const remaining = (res: request.Response) => Number(res.headers['x-ratelimit-remaining']);

describe.each(STORAGES)('bans and cheap polling on the %s storage (e2e)', (_storage, storageEnv) => {
  let t: TestApp;
  let admin: string;
  let ipCounter = 0;
  const newIp = () => `198.51.100.${++ipCounter}`;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp(
      { ...storageEnv(), ...appEnv() },
      { rootModule: AppModule.register({ modules: [BlockingModule] }) },
    );
    await t.reset();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise', { perMinute: 100_000, perDay: 1_000_000 });
  });
  afterAll(() => t.close());

  /** Sends until the client is banned (429 API_KEY_BANNED). */
  async function ban(send: () => request.Test): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const res = await send();
      if (res.status === 429 && (res.body as { code: string }).code === 'API_KEY_BANNED') return;
    }
    throw new Error('never banned');
  }

  const bans = async (): Promise<Ban[]> => (await api().get('/admin/bans').set(KEY, admin).expect(200)).body as Ban[];

  describe('GET /admin/bans and DELETE /admin/bans/addresses', () => {
    it('lists a banned key and a banned address with when the ban ends and why', async () => {
      const secret = await t.key(['read']);
      const keyId = (await t.app.get(ApiKeysService).list({ limit: 100, afterId: null })).items.find(
        (k) => k.prefix === secret.slice(0, 12),
      )?.id;
      const ip = newIp();
      const before = Date.now();
      await ban(() => api().get('/categories').set(KEY, secret));
      await ban(() => api().get('/categories').set('X-Forwarded-For', ip));
      const listed = await bans();
      const ofKey = listed.find((b) => b.kind === 'key' && b.keyId === keyId);
      const ofAddress = listed.find((b) => b.kind === 'address' && b.address === ip);
      expect(ofKey).toEqual({ kind: 'key', keyId, until: expect.any(String), cause: 'ignored_429s' });
      expect(ofAddress).toEqual({ kind: 'address', address: ip, until: expect.any(String), cause: 'ignored_429s' });
      // 900 s from the ban's start (the default), give or take the test's own duration.
      const until = Date.parse(ofAddress?.until ?? '');
      expect(until).toBeGreaterThanOrEqual(before + 900_000 - 1_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 900_000 + 1_000);
    });

    it('lists an IPv6 client as its /64, and lifting any address of it lifts the ban', async () => {
      await ban(() => api().get('/categories').set('X-Forwarded-For', '2001:db8:bb:1::1'));
      expect(await bans()).toContainEqual(
        expect.objectContaining({ kind: 'address', address: '2001:db8:bb:1::/64', cause: 'ignored_429s' }),
      );
      await api().delete('/admin/bans/addresses').query({ address: '2001:db8:bb:1::77' }).set(KEY, admin).expect(204);
      expect((await bans()).filter((b) => b.address === '2001:db8:bb:1::/64')).toEqual([]);
      // Lifted: the address is refused for its spent minute, no longer banned.
      const res = await api().get('/categories').set('X-Forwarded-For', '2001:db8:bb:1::2');
      expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
    });

    it('lifts an address ban at once; lifting an address that is not banned is 204 too', async () => {
      const ip = newIp();
      await ban(() => api().get('/categories').set('X-Forwarded-For', ip));
      await api().delete('/admin/bans/addresses').query({ address: ip }).set(KEY, admin).expect(204);
      expect((await bans()).filter((b) => b.address === ip)).toEqual([]);
      expectError(await api().get('/categories').set('X-Forwarded-For', ip), 429, 'RATE_LIMIT_EXCEEDED');
      await api().delete('/admin/bans/addresses').query({ address: newIp() }).set(KEY, admin).expect(204);
    });

    it("lists a route's own block with its limit, and lifting the address lifts it", async () => {
      const ip = newIp();
      const get = () => api().get('/blocking').set('X-Forwarded-For', ip);
      await get().expect(200);
      expectError(await get(), 429, 'RATE_LIMIT_EXCEEDED');
      expect((await bans()).filter((b) => b.address === ip)).toEqual([
        { kind: 'address', address: ip, until: expect.any(String), cause: 'route_block', limit: 'export' },
      ]);
      await api().delete('/admin/bans/addresses').query({ address: ip }).set(KEY, admin).expect(204);
      expect((await bans()).filter((b) => b.address === ip)).toEqual([]);
    });

    it('refuses a missing or malformed address with 400, and callers without the admin scope with 403', async () => {
      for (const address of [undefined, 'not-an-ip', '10.0.0.0/8', '2001:db8::/48']) {
        const res = await api()
          .delete('/admin/bans/addresses')
          .query(address === undefined ? {} : { address })
          .set(KEY, admin);
        expectError(res, 400, 'VALIDATION_FAILED');
      }
      const reader = await t.key(['read']);
      expectError(await api().get('/admin/bans').set(KEY, reader), 403, 'INSUFFICIENT_SCOPE');
      expectError(
        await api().delete('/admin/bans/addresses').query({ address: '192.0.2.1' }).set(KEY, reader),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });
  });

  describe('a conditional GET answered 304 is not charged', () => {
    it('keeps X-RateLimit-Remaining where it was, with or without Cache-Control: no-cache (as fetch sends)', async () => {
      const key = await t.key(['read']);
      await api().get('/categories').set(KEY, key).expect(200);
      const full = await api().get('/categories').set(KEY, key).expect(200);
      const etag = String(full.headers.etag);
      expect(etag).not.toBe('undefined');
      expect(remaining(full)).toBe(1);
      for (const cacheControl of [undefined, 'no-cache', 'max-age=0']) {
        const req = api().get('/categories').set(KEY, key).set('If-None-Match', etag);
        const res = await (cacheControl ? req.set('Cache-Control', cacheControl) : req);
        expect({ cacheControl, status: res.status, remaining: remaining(res) }).toEqual({
          cacheControl,
          status: 304,
          remaining: 1,
        });
      }
      // Still one left: the 304s took nothing, and the next full answer takes it.
      const last = await api().get('/categories').set(KEY, key).set('If-None-Match', '"stale"').expect(200);
      expect(remaining(last)).toBe(0);
      expectError(await api().get('/categories').set(KEY, key), 429, 'RATE_LIMIT_EXCEEDED');
    });

    it("is not counted as a request in the key's daily usage either", async () => {
      const { key, secret } = await t.app
        .get(ApiKeysService)
        .create({ name: 'poller', plan: 'free', scopes: ['read'] }, SYSTEM);
      const today = new Date().toISOString().slice(0, 10);
      const requestsToday = async (): Promise<number> => {
        await t.app.get(KeyUsageRecorder).flush();
        const res = await api()
          .get(`/admin/api-keys/${key.id}/usage`)
          .query({ from: today, to: today })
          .set(KEY, admin)
          .expect(200);
        return (res.body as Array<{ requests: number }>)[0].requests;
      };
      const full = await api().get('/categories').set(KEY, secret).expect(200);
      expect(await requestsToday()).toBe(1);
      for (let i = 0; i < 2; i++) {
        await api().get('/categories').set(KEY, secret).set('If-None-Match', String(full.headers.etag)).expect(304);
      }
      expect(await requestsToday()).toBe(1);
      // A conditional GET answered in full is counted.
      await api().get('/categories').set(KEY, secret).set('If-None-Match', '"stale"').expect(200);
      expect(await requestsToday()).toBe(2);
    });

    it('a bare reload (no-cache without If-None-Match) is a full, charged answer', async () => {
      const key = await t.key(['read']);
      const res = await api().get('/categories').set(KEY, key).set('Cache-Control', 'no-cache').expect(200);
      expect(remaining(res)).toBe(2);
      expect(remaining(await api().get('/categories').set(KEY, key))).toBe(1);
    });
  });
});

/** Two instances on one Redis: a ban started on one is listed and lifted on the other, a 304 on one refunds for both. */
(process.env.REDIS_URL ? describe : describe.skip)('bans and cheap polling on Redis: two instances (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  const [, redisEnv] = STORAGES[1] ?? ['redis', () => ({})];

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

  it('lists on one instance the ban started on the other, and lifts it for both', async () => {
    const ip = '203.0.113.200';
    for (let i = 0; i < 8; i++) await request(a.http).get('/categories').set('X-Forwarded-For', ip);
    expectError(await request(a.http).get('/categories').set('X-Forwarded-For', ip), 429, 'API_KEY_BANNED');
    const listed = (await request(b.http).get('/admin/bans').set(KEY, admin).expect(200)).body as Ban[];
    expect(listed.filter((ban) => ban.address === ip)).toEqual([
      { kind: 'address', address: ip, until: expect.any(String), cause: 'ignored_429s' },
    ]);
    await request(b.http).delete('/admin/bans/addresses').query({ address: ip }).set(KEY, admin).expect(204);
    expectError(await request(a.http).get('/categories').set('X-Forwarded-For', ip), 429, 'RATE_LIMIT_EXCEEDED');
    expect(((await request(a.http).get('/admin/bans').set(KEY, admin).expect(200)).body as Ban[]).length).toBe(0);
  });

  it('a 304 answered by one instance is not charged on the other', async () => {
    const key = await a.key(['read']);
    const full = await request(a.http).get('/categories').set(KEY, key).expect(200);
    expect(remaining(full)).toBe(2);
    const etag = String(full.headers.etag);
    for (const app of [b, a, b]) {
      const res = await request(app.http)
        .get('/categories')
        .set(KEY, key)
        .set('If-None-Match', etag)
        .set('Cache-Control', 'no-cache');
      expect({ status: res.status, remaining: remaining(res) }).toEqual({ status: 304, remaining: 2 });
    }
    expect(remaining(await request(b.http).get('/categories').set(KEY, key).expect(200))).toBe(1);
  });
});
