import {
  ApiKeyResolver,
  type AuthenticatedRequest,
  type Authentication,
  authenticateRequest,
  hashApiKeySecret,
  KeyStoreUnavailableError,
} from '@petstore/auth';
import { ApiError } from '@petstore/errors';
import type { NextFunction, Request, Response } from 'express';
import { InMemoryApiKeyStore } from '../../../test/fakes/index.js';
import { MemoryRateLimitStorage } from './memory.storage.js';
import { rateLimitHeaders } from './rate-limit-decision.js';
import { RateLimitMiddleware } from './rate-limit.middleware.js';
import type { RateLimitClient, RateLimitRefusal } from './rate-limit.options.js';
import { RateLimiter } from './rate-limiter.js';
import { recallRateLimit } from './request-state.js';

const SECRET = 'psk_middleware-test-secret-000000000000000000';
const ADDRESS = '203.0.113.9';

/** The application's side, as the service composes it: clients by API key, else by address under the free plan. */
const QUOTAS: Record<string, { perMinute: number; perDay: number }> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** At once when the key is cached, as the service's `identify` does. */
function identifyByKey(resolver: ApiKeyResolver) {
  return (req: Request): RateLimitClient | Promise<RateLimitClient> => {
    const address = { id: `ip:${req.ip}`, plan: 'free' };
    const clientOf = (authentication: Authentication): RateLimitClient =>
      authentication.kind === 'key'
        ? { id: `k${authentication.key.id}`, plan: authentication.key.plan, limits: authentication.key.limits }
        : address;
    const authentication = authenticateRequest(req as AuthenticatedRequest, resolver);
    if (!(authentication instanceof Promise)) return clientOf(authentication);
    return authentication.then(clientOf, (error: unknown) => {
      if (!(error instanceof KeyStoreUnavailableError)) throw error;
      return { ...address, unverified: error };
    });
  };
}

function refusalError(refusal: RateLimitRefusal): ApiError {
  const retry = { 'Retry-After': String(refusal.retryAfterSeconds) };
  if (refusal.reason === 'unavailable') return new ApiError(503, 'SERVICE_UNAVAILABLE', 'unavailable', retry);
  return new ApiError(429, refusal.reason === 'banned' ? 'API_KEY_BANNED' : 'RATE_LIMIT_EXCEEDED', 'refused', retry);
}

interface Sent {
  readonly error: unknown;
  readonly headers: Record<string, string>;
}

describe('RateLimitMiddleware', () => {
  let store: InMemoryApiKeyStore;
  let limiter: RateLimiter;
  let middleware: RateLimitMiddleware;
  let counted: string[];
  let refusals: RateLimitRefusal[];

  beforeEach(async () => {
    store = new InMemoryApiKeyStore();
    await store.create({
      name: 'paying',
      prefix: SECRET.slice(0, 12),
      hash: hashApiKeySecret(SECRET),
      plan: 'enterprise',
      scopes: ['read'],
      limits: { perMinute: 1_000_000, perDay: 10_000_000 },
    });
    const settings = { failOpen: true, banThresholdMultiplier: 3, banDurationSeconds: 900 };
    limiter = new RateLimiter((plan) => QUOTAS[plan] ?? QUOTAS.free, new MemoryRateLimitStorage(), settings, null);
    counted = [];
    refusals = [];
    middleware = new RateLimitMiddleware(limiter, {
      identify: identifyByKey(new ApiKeyResolver(store)),
      refusalError,
      onCounted: (client) => counted.push(client.id),
      onRefusal: (refusal) => refusals.push(refusal),
      exemptPaths: ['/health/live', '/health/ready'],
      exemptPathPrefixes: ['/console'],
    });
  });

  function send(headers: Record<string, string> = {}, path = '/pets'): Promise<Sent> {
    const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const req = { ip: ADDRESS, path, header: (name: string) => lower[name.toLowerCase()] } as unknown as Request;
    const set: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (set[name] = value) } as unknown as Response;
    return new Promise((resolve) => {
      const next: NextFunction = (error?: unknown) => resolve({ error, headers: set });
      middleware.handle(req, res, next);
    });
  }

  const remaining = (sent: Sent) => Number(sent.headers['X-RateLimit-Remaining']);

  it('tells onCounted of each request it counted, onRefusal of each 429, and which refusal started the ban', async () => {
    await banAddress();
    expect(counted).toEqual(Array(60).fill(`ip:${ADDRESS}`));
    expect(refusals.map((r) => r.reason)).toEqual([...Array(3 * 60).fill('limited'), 'banned', 'banned']);
    expect(refusals.filter((r) => r.reason === 'banned' && r.started)).toHaveLength(1);
    expect(refusals[3 * 60]).toMatchObject({ reason: 'banned', started: true });
    await send({}, '/health/live');
    expect(counted).toHaveLength(60);
  });

  it('neither counts nor refuses what is under an exempt prefix, and counts its look-alikes', async () => {
    await banAddress();
    for (const path of ['/console', '/console/', '/console/assets/index.js', '/console/keys/42']) {
      const sent = await send({}, path);
      expect({ path, error: sent.error }).toEqual({ path, error: undefined });
      expect(sent.headers['X-RateLimit-Limit']).toBeDefined();
    }
    expect(counted).toHaveLength(60);
    expect((await send({}, '/consoles')).error).toMatchObject({ status: 429, code: 'API_KEY_BANNED' });
  });

  async function banAddress(): Promise<void> {
    // Keyless traffic far past the free plan: 60 allowed, then more than 3 × 60 refusals within the minute.
    for (let i = 0; i < 60 + 3 * 60 + 1; i++) await send();
    const banned = await send();
    expect(banned.error).toMatchObject({ status: 429, code: 'API_KEY_BANNED' });
  }

  it('decides without an async step once the key is cached (counters in this process)', async () => {
    await send({ 'X-API-Key': SECRET }); // the first request looks the key up
    const req = { ip: ADDRESS, path: '/pets', header: () => SECRET } as unknown as Request;
    const res = { setHeader: () => undefined } as unknown as Response;
    let answered: unknown = 'not yet';
    middleware.handle(req, res, (error?: unknown) => (answered = error));
    expect(answered).toBeUndefined(); // called before handle returned
    expect(counted).toEqual(['k1', 'k1']);
  });

  it("sets the decision's rateLimitHeaders, in their order, allowed or refused", async () => {
    const seen: Array<{ decision: unknown; headers: Array<[string, string]> }> = [];
    for (let i = 0; i < 61; i++) {
      const req = { ip: ADDRESS, path: '/pets/', header: () => undefined } as unknown as Request;
      const headers: Array<[string, string]> = [];
      const res = { setHeader: (name: string, value: string) => headers.push([name, value]) } as unknown as Response;
      await new Promise<void>((resolve) => middleware.handle(req, res, () => resolve()));
      const decision = recallRateLimit(req)?.decision;
      if (!decision) throw new Error('no decision');
      expect(headers).toEqual(Object.entries(rateLimitHeaders(decision)));
      seen.push({ decision: decision.outcome, headers });
    }
    expect(seen[0].decision).toBe('allowed');
    expect(seen[60].decision).toBe('limited');
    expect(seen[60].headers.map(([name]) => name)).toContain('Retry-After');
  });

  it('answers 503 with the address headers when the key store fails, charging no one', async () => {
    const before = remaining(await send());
    store.down = true;
    const sent = await send({ 'X-API-Key': SECRET });
    expect(sent.error).toBeInstanceOf(ApiError);
    expect(sent.error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '5' } });
    expect(sent.headers['X-RateLimit-Limit']).toBe('60');
    expect(remaining(sent)).toBe(before); // the failed lookup consumed nothing
    store.down = false;
    expect(remaining(await send())).toBe(before - 1);
  });

  it('answers 503, not 429, for a valid key from an address banned for keyless traffic', async () => {
    await banAddress();
    store.down = true;
    for (let i = 0; i < 20; i++) {
      const sent = await send({ 'X-API-Key': SECRET });
      expect(sent.error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    }
    store.down = false;
    const served = await send({ 'X-API-Key': SECRET });
    expect(served.error).toBeUndefined();
    expect(served.headers['X-RateLimit-Limit']).toBe('1000000');
  });

  it('still counts an unknown key against the address', async () => {
    const before = remaining(await send());
    const sent = await send({ 'X-API-Key': 'psk_not-a-key-at-all' });
    expect(sent.error).toBeUndefined(); // the guard answers 401
    expect(remaining(sent)).toBe(before - 1);
  });

  it('lets an exempt probe through with a key while the key store fails', async () => {
    store.down = true;
    const sent = await send({ 'X-API-Key': SECRET }, '/health/live');
    expect(sent.error).toBeUndefined();
    expect(sent.headers['X-RateLimit-Limit']).toBe('60');
  });
});
