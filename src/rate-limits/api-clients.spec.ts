import { type ApiKey, ApiKeyResolver, hashApiKeySecret } from '@petstore/auth';
import { ApiError } from '@petstore/errors';
import type { Request } from 'express';
import { InMemoryApiKeyStore } from '../../test/fakes/index.js';
import { addressClient, identifyByApiKey, keyClient, keyCounterId, quotaOfPlan, refusalError } from './api-clients.js';
import { PlanTableService } from './plan-table.js';
import { DEFAULT_PLAN_TABLE } from './plan.js';

function key(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 7,
    name: 'k',
    prefix: 'psk_abcdefgh',
    plan: 'free',
    scopes: ['read'],
    limits: null,
    createdAt: new Date(Date.UTC(2026, 0, 1)),
    revokedAt: null,
    expiresAt: null,
    allowedAddresses: null,
    lastUsedAt: null,
    previousKeyExpiresAt: null,
    previousKeyLastUsedAt: null,
    ...overrides,
  };
}

const quotaOf = quotaOfPlan(
  new PlanTableService({ file: '', required: false, overrides: {} }, () => DEFAULT_PLAN_TABLE),
);
const limitsOf = (client: { plan: string; limits?: { perMinute: number; perDay: number } | null }) =>
  client.limits ?? quotaOf(client.plan);

describe('API clients', () => {
  describe('quotas', () => {
    it.each([
      ['free', { perMinute: 60, perDay: 1_000 }],
      ['pro', { perMinute: 300, perDay: 10_000 }],
      ['business', { perMinute: 1_000, perDay: 100_000 }],
    ])('gives a %s key its plan quotas', (plan, limits) => {
      expect(limitsOf(keyClient(key({ plan })))).toEqual(limits);
    });
    it('gives an enterprise key its own limits', () => {
      const limits = { perMinute: 5, perDay: 50 };
      expect(limitsOf(keyClient(key({ plan: 'enterprise', limits })))).toEqual(limits);
    });
    it('counts an address under the free plan', () => {
      expect(limitsOf(addressClient('203.0.113.7'))).toEqual({ perMinute: 60, perDay: 1_000 });
    });
    it('falls back to free for an enterprise key without limits or an unknown plan (fails safe)', () => {
      expect(limitsOf(keyClient(key({ plan: 'enterprise' }))).perMinute).toBe(60);
      expect(limitsOf(keyClient(key({ plan: 'gold' }))).perMinute).toBe(60);
    });
    it('ignores limits on a key whose plan has quotas of its own', () => {
      expect(limitsOf(keyClient(key({ plan: 'pro', limits: { perMinute: 5, perDay: 50 } })))).toEqual({
        perMinute: 300,
        perDay: 10_000,
      });
    });
  });

  it('names a key by id and creation time, an address by itself', () => {
    expect(keyCounterId(key())).toBe(`k7.${Date.UTC(2026, 0, 1).toString(36)}`);
    expect(keyClient(key()).id).toBe(keyCounterId(key()));
    expect(addressClient('2001:db8::1').id).toBe('ip:2001:db8:0:0::/64');
  });

  describe('identifyByApiKey', () => {
    const SECRET = 'psk_api-clients-test-secret-0000000000000000';
    let store: InMemoryApiKeyStore;
    let identify: ReturnType<typeof identifyByApiKey>;

    beforeEach(async () => {
      store = new InMemoryApiKeyStore();
      await store.create({
        name: 'paying',
        prefix: SECRET.slice(0, 12),
        hash: hashApiKeySecret(SECRET),
        plan: 'pro',
        scopes: ['read'],
        limits: null,
      });
      identify = identifyByApiKey(new ApiKeyResolver(store));
    });

    const request = (apiKey?: string) =>
      ({
        ip: '203.0.113.9',
        header: (name: string) => (name.toLowerCase() === 'x-api-key' ? apiKey : undefined),
      }) as unknown as Request;

    it('counts a valid key against the key, and leaves it on the request for the guard', async () => {
      const req = request(SECRET);
      const client = await identify(req);
      expect(client).toMatchObject({ plan: 'pro', key: { name: 'paying' } });
      expect(client.unverified).toBeUndefined();
      expect((req as unknown as { apiKey?: ApiKey }).apiKey?.name).toBe('paying');
    });

    it('counts no key or an unknown key against the address, under the free plan', async () => {
      expect(await identify(request())).toEqual({ id: 'ip:203.0.113.9', plan: 'free', key: null, anonymous: true });
      expect(await identify(request('psk_unknown'))).toEqual({
        id: 'ip:203.0.113.9',
        plan: 'free',
        key: null,
        anonymous: true,
      });
    });

    it('says the key could not be checked when the key store fails: the address, unverified (503)', async () => {
      store.down = true;
      const client = await identify(request(SECRET));
      expect(client).toMatchObject({ id: 'ip:203.0.113.9', key: null });
      expect(client.unverified).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    });
  });

  describe('refusalError', () => {
    const anonymous = addressClient('203.0.113.9');
    const window = { name: 'minute', limit: 60, durationMs: 60_000, route: false };

    it("names the plan's window and whom it counts", () => {
      const error = refusalError({ reason: 'limited', client: keyClient(key()), retryAfterSeconds: 42, window });
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 429,
        code: 'RATE_LIMIT_EXCEEDED',
        message: 'Rate limit exceeded: 60 requests per minute for this API key; retry in 42 s',
        headers: { 'Retry-After': '42' },
      });
      expect(refusalError({ reason: 'limited', client: anonymous, retryAfterSeconds: 1, window }).message).toContain(
        'for requests without a valid API key from this address',
      );
    });

    it("names a route's own limit by its length", () => {
      const routeWindow = { name: 'export', limit: 10, durationMs: 60_000, route: true };
      const error = refusalError({
        reason: 'limited',
        client: keyClient(key()),
        retryAfterSeconds: 5,
        window: routeWindow,
      });
      expect(error.message).toBe(
        'Rate limit exceeded: 10 requests per 60 s on this route for this API key; retry in 5 s',
      );
    });

    it('answers a ban with API_KEY_BANNED, and a storage failing closed with 503', () => {
      expect(refusalError({ reason: 'banned', client: anonymous, retryAfterSeconds: 900 })).toMatchObject({
        status: 429,
        code: 'API_KEY_BANNED',
        headers: { 'Retry-After': '900' },
      });
      expect(refusalError({ reason: 'unavailable', client: anonymous, retryAfterSeconds: 5 })).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        headers: { 'Retry-After': '5' },
      });
    });
  });
});
