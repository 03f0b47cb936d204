import type { ExecutionContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@petstore/errors';
import { InMemoryApiKeyStore } from '../../../test/fakes/index.js';
import type { ApiKey } from './api-key.js';
import { hashApiKeySecret } from './api-key-secret.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyResolver } from './api-key.resolver.js';
import { Public, RequireApiKey, RequireScope } from './auth.decorators.js';
import type { Scope } from './scope.js';

class PetsLikeController {
  @RequireScope('read')
  list(): void {}

  @RequireScope('write')
  create(): void {}

  @Public()
  health(): void {}

  @RequireApiKey()
  ownQuota(): void {}

  /** A route someone forgot to decorate. */
  undecorated(): void {}
}

@RequireScope('read')
class ReadController {
  inherited(): void {}

  @RequireScope('write')
  overridden(): void {}
}

@Public()
class PublicController {
  anything(): void {}
}

interface StubRequest {
  apiKey?: ApiKey;
  ip?: string;
  header(name: string): string | undefined;
}

function request(headers: Record<string, string> = {}, ip = '192.0.2.10'): StubRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { ip, header: (name) => lower[name.toLowerCase()] };
}

/** Nest's own execution context of an HTTP request to `handler` of `controller` (the request, a response, next). */
function context(controller: new () => object, handler: string, req: StubRequest): ExecutionContext {
  const method = (controller.prototype as Record<string, unknown>)[handler] as () => void;
  return new ExecutionContextHost([req, {}, () => undefined], controller, method);
}

describe('ApiKeyGuard', () => {
  let store: InMemoryApiKeyStore;
  let guard: ApiKeyGuard;
  let nextSecret = 0;

  beforeEach(() => {
    store = new InMemoryApiKeyStore();
    guard = new ApiKeyGuard(new Reflector(), new ApiKeyResolver(store));
  });

  async function issue(
    scopes: Scope[],
    lifecycle: { expiresAt?: Date; allowedAddresses?: string[] } = {},
  ): Promise<{ key: ApiKey; secret: string }> {
    const secret = `psk_guard-test-${nextSecret++}-${'x'.repeat(30)}`;
    const key = await store.create({
      name: 'test',
      prefix: secret.slice(0, 12),
      hash: hashApiKeySecret(secret),
      plan: 'free',
      scopes,
      limits: null,
      ...lifecycle,
    });
    return { key, secret };
  }

  /** What Nest waits for: a boolean given at once (key already resolved) or a promise of one. */
  async function activate(ctx: ExecutionContext): Promise<boolean> {
    return guard.canActivate(ctx);
  }

  async function rejection(ctx: ExecutionContext): Promise<ApiError> {
    // A refusal may be thrown at once (key already resolved) or as a rejection: Nest awaits either.
    const error = await activate(ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  describe('public routes', () => {
    it('lets a @Public() handler through without a key or a store lookup', async () => {
      await expect(activate(context(PetsLikeController, 'health', request()))).resolves.toBe(true);
      expect(store.calls.findActiveByHash).toBe(0);
    });

    it('lets every handler of a @Public() controller through', async () => {
      await expect(activate(context(PublicController, 'anything', request()))).resolves.toBe(true);
    });

    it('does not even validate a key sent to a public route', async () => {
      const req = request({ 'X-API-Key': 'psk_garbage' });
      await expect(activate(context(PetsLikeController, 'health', req))).resolves.toBe(true);
      expect(store.calls.findActiveByHash).toBe(0);
    });
  });

  describe('@RequireApiKey()', () => {
    it('lets a valid key of any scope through', async () => {
      for (const scopes of [['read'], ['write'], ['admin']] as Scope[][]) {
        const { secret } = await issue(scopes);
        const req = request({ 'X-API-Key': secret });
        await expect(activate(context(PetsLikeController, 'ownQuota', req))).resolves.toBe(true);
      }
    });

    it('still needs a valid key', async () => {
      const none = await rejection(context(PetsLikeController, 'ownQuota', request()));
      expect(none).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
      const unknown = await rejection(context(PetsLikeController, 'ownQuota', request({ 'X-API-Key': 'psk_nope' })));
      expect(unknown).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    });
  });

  describe('authentication', () => {
    it('answers 401 UNAUTHENTICATED without a key', async () => {
      const error = await rejection(context(PetsLikeController, 'list', request()));
      expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
      expect(error.message).toContain('X-API-Key');
    });

    it('answers 401 UNAUTHENTICATED for an empty key', async () => {
      const error = await rejection(context(PetsLikeController, 'list', request({ 'X-API-Key': '' })));
      expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    });

    it('answers 401 INVALID_API_KEY for an unknown key', async () => {
      const error = await rejection(context(PetsLikeController, 'list', request({ 'X-API-Key': 'psk_nope' })));
      expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    });

    it('answers 401 INVALID_API_KEY for a revoked key', async () => {
      const { key, secret } = await issue(['read']);
      await store.revoke(key.id);
      const error = await rejection(context(PetsLikeController, 'list', request({ 'X-API-Key': secret })));
      expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    });

    it('answers 401 API_KEY_EXPIRED once the key is past its expiresAt, judged per request', async () => {
      let wall = Date.parse('2026-11-28T10:00:00Z');
      guard = new ApiKeyGuard(new Reflector(), new ApiKeyResolver(store, undefined, () => wall));
      const { secret } = await issue(['read'], { expiresAt: new Date(wall + 60_000) });
      const ctx = () => context(PetsLikeController, 'list', request({ 'X-API-Key': secret }));
      await expect(activate(ctx())).resolves.toBe(true);
      wall += 60_000;
      // The key is cached now: the expiry is still read against the clock.
      const error = await rejection(ctx());
      expect(error).toMatchObject({ status: 401, code: 'API_KEY_EXPIRED' });
      expect(store.calls.findActiveByHash).toBe(1);
    });

    it("answers 403 API_KEY_ADDRESS_NOT_ALLOWED from outside the key's addresses, and lets its addresses in", async () => {
      const { secret } = await issue(['read'], { allowedAddresses: ['198.51.100.0/24'] });
      const from = (ip: string) => context(PetsLikeController, 'list', request({ 'X-API-Key': secret }, ip));
      await expect(activate(from('198.51.100.20'))).resolves.toBe(true);
      await expect(activate(from('::ffff:198.51.100.21'))).resolves.toBe(true);
      const error = await rejection(from('192.0.2.10'));
      expect(error).toMatchObject({ status: 403, code: 'API_KEY_ADDRESS_NOT_ALLOWED' });
    });

    it('refuses an absurdly long key without asking the store', async () => {
      const error = await rejection(context(PetsLikeController, 'list', request({ 'X-API-Key': 'k'.repeat(201) })));
      expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
      expect(store.calls.findActiveByHash).toBe(0);
    });

    it('reads the header case-insensitively and attaches the key to the request', async () => {
      const { key, secret } = await issue(['read']);
      const req = request({ 'x-api-key': secret });
      await expect(activate(context(PetsLikeController, 'list', req))).resolves.toBe(true);
      expect(req.apiKey).toEqual(key);
    });

    it('trusts a key already attached to the request (no second lookup)', async () => {
      const { key } = await issue(['read']);
      const req = request();
      req.apiKey = key;
      await expect(activate(context(PetsLikeController, 'list', req))).resolves.toBe(true);
      expect(store.calls.findActiveByHash).toBe(0);
    });
  });

  describe('scopes', () => {
    it('lets a key with the required scope through', async () => {
      const { secret } = await issue(['read', 'write']);
      const req = request({ 'X-API-Key': secret });
      await expect(activate(context(PetsLikeController, 'create', req))).resolves.toBe(true);
    });

    it('answers 403 INSUFFICIENT_SCOPE, naming the scope, when the key lacks it', async () => {
      const { secret } = await issue(['read']);
      const error = await rejection(context(PetsLikeController, 'create', request({ 'X-API-Key': secret })));
      expect(error).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
      expect(error.message).toContain("'write'");
    });

    it('authenticates before checking scopes: a bad key is 401, never 403', async () => {
      const error = await rejection(context(PetsLikeController, 'create', request({ 'X-API-Key': 'psk_nope' })));
      expect(error.status).toBe(401);
    });

    it('requires admin on a route without @RequireScope (fails closed)', async () => {
      const { secret: readWrite } = await issue(['read', 'write']);
      const error = await rejection(context(PetsLikeController, 'undecorated', request({ 'X-API-Key': readWrite })));
      expect(error).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
      expect(error.message).toContain("'admin'");

      const { secret: admin } = await issue(['admin']);
      const req = request({ 'X-API-Key': admin });
      await expect(activate(context(PetsLikeController, 'undecorated', req))).resolves.toBe(true);
    });

    it('takes the scope of the controller when the handler has none', async () => {
      const { secret } = await issue(['read']);
      const req = request({ 'X-API-Key': secret });
      await expect(activate(context(ReadController, 'inherited', req))).resolves.toBe(true);
    });

    it("lets the handler's scope override the controller's", async () => {
      const { secret } = await issue(['read']);
      const error = await rejection(context(ReadController, 'overridden', request({ 'X-API-Key': secret })));
      expect(error).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    });
  });
});
