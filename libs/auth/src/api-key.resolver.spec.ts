import fc from 'fast-check';
import { InMemoryApiKeyStore } from '../../../test/fakes/index.js';
import type { ApiKey } from './api-key.js';
import { hashApiKeySecret } from './api-key-secret.js';
import {
  API_KEY_CACHE_TTL_MS,
  API_KEY_REFRESH_AFTER_MS,
  API_KEY_STALE_IF_ERROR_MS,
  ApiKeyResolver,
} from './api-key.resolver.js';
import { KeyStoreUnavailableError } from './key-store-unavailable.error.js';
import type { NewApiKeyRecord } from './api-key.store.js';

const SECRET = 'psk_resolver-test-secret-0000000000000000000';
const OTHER = 'psk_resolver-test-secret-1111111111111111111';
/** An entry expires once it is older than the TTL (lru-cache's `ttl`). */
const PAST_TTL = API_KEY_CACHE_TTL_MS + 1;

function record(secret: string, name = 'k'): NewApiKeyRecord {
  return {
    name,
    prefix: secret.slice(0, 12),
    hash: hashApiKeySecret(secret),
    plan: 'free',
    scopes: ['read'],
    limits: null,
  };
}

describe('ApiKeyResolver', () => {
  let store: InMemoryApiKeyStore;
  let clock: number;
  let resolver: ApiKeyResolver;

  beforeEach(() => {
    clock = 1_000_000;
    store = new InMemoryApiKeyStore({ now: () => new Date(clock) });
    resolver = new ApiKeyResolver(store, () => clock);
  });

  it('resolves an active key by the SHA-256 of its secret', async () => {
    const key = await store.create(record(SECRET));
    expect(await resolver.resolve(SECRET)).toEqual(key);
    expect(await resolver.resolve(OTHER)).toBeNull();
  });

  it('asks the store once while the entry is fresh', async () => {
    await store.create(record(SECRET));
    for (let i = 0; i < 5; i++) {
      await resolver.resolve(SECRET);
      clock += 1_000;
    }
    expect(store.calls.findActiveByHash).toBe(1);
  });

  it('caches per secret', async () => {
    await store.create(record(SECRET));
    await store.create(record(OTHER));
    await resolver.resolve(SECRET);
    await resolver.resolve(OTHER);
    await resolver.resolve(SECRET);
    await resolver.resolve(OTHER);
    expect(store.calls.findActiveByHash).toBe(2);
  });

  it('refreshes a busy key in the background before its TTL, so it never waits on the store', async () => {
    await store.create(record(SECRET));
    await resolver.resolve(SECRET);
    clock += API_KEY_REFRESH_AFTER_MS - 1;
    await resolver.resolve(SECRET);
    expect(store.calls.findActiveByHash).toBe(1);
    clock += 1;
    await resolver.resolve(SECRET); // served from the entry; one lookup starts beside it
    await resolver.resolve(SECRET); // and is shared, not repeated
    expect(store.calls.findActiveByHash).toBe(2);
    clock += API_KEY_REFRESH_AFTER_MS - 1; // fresh again from the refresh (else this would be past the TTL)
    await resolver.resolve(SECRET);
    expect(store.calls.findActiveByHash).toBe(2);
  });

  it('asks the store again once an idle entry is past its TTL', async () => {
    await store.create(record(SECRET));
    await resolver.resolve(SECRET);
    clock += PAST_TTL;
    await resolver.resolve(SECRET);
    expect(store.calls.findActiveByHash).toBe(2);
  });

  it('sees a change made elsewhere (another instance) after the TTL, not before', async () => {
    const key = await store.create(record(SECRET));
    await resolver.resolve(SECRET);
    await store.revoke(key.id); // not through this resolver
    expect(await resolver.resolve(SECRET)).toEqual(key);
    clock += PAST_TTL;
    expect(await resolver.resolve(SECRET)).toBeNull();
  });

  it('answers at once (no promise) only what its caches know: a fresh key, a known miss; else undefined', async () => {
    const key = await store.create(record(SECRET));
    expect(resolver.resolveAtOnce(SECRET)).toBeUndefined();
    expect(resolver.resolveAtOnce(OTHER)).toBeUndefined();
    expect(store.calls.findActiveByHash).toBe(0);
    await resolver.resolve(SECRET);
    await resolver.resolve(OTHER);
    expect(resolver.resolveAtOnce(SECRET)).toEqual(key);
    expect(resolver.resolveAtOnce(OTHER)).toBeNull();
    clock += PAST_TTL;
    expect(resolver.resolveAtOnce(SECRET)).toBeUndefined(); // expired: only the store can say
    expect(resolver.resolveAtOnce(OTHER)).toBeUndefined();
    expect(store.calls.findActiveByHash).toBe(2);
  });

  it('caches misses too, so guessing keys does not hammer the store', async () => {
    expect(await resolver.resolve(SECRET)).toBeNull();
    expect(await resolver.resolve(SECRET)).toBeNull();
    expect(store.calls.findActiveByHash).toBe(1);
  });

  it('keeps a cached miss until the TTL passes or the hash is invalidated', async () => {
    await resolver.resolve(SECRET);
    const key = await store.create(record(SECRET));
    expect(await resolver.resolve(SECRET)).toBeNull();
    clock += PAST_TTL;
    expect(await resolver.resolve(SECRET)).toEqual(key);
  });

  it('invalidateHash forgets a cached miss at once', async () => {
    await resolver.resolve(SECRET);
    const key = await store.create(record(SECRET));
    resolver.invalidateHash(hashApiKeySecret(SECRET));
    expect(await resolver.resolve(SECRET)).toEqual(key);
    expect(store.calls.findActiveByHash).toBe(2);
  });

  it('invalidateHash of another hash keeps the entry', async () => {
    await resolver.resolve(SECRET);
    resolver.invalidateHash(hashApiKeySecret(OTHER));
    await resolver.resolve(SECRET);
    expect(store.calls.findActiveByHash).toBe(1);
  });

  it('invalidate(id) forgets that key at once and keeps the others', async () => {
    const a = await store.create(record(SECRET));
    const b = await store.create(record(OTHER));
    await resolver.resolve(SECRET);
    await resolver.resolve(OTHER);
    await store.revoke(a.id);
    resolver.invalidate(a.id);
    expect(await resolver.resolve(SECRET)).toBeNull();
    expect(await resolver.resolve(OTHER)).toEqual(b);
    expect(store.calls.findActiveByHash).toBe(3);
  });

  it('invalidate(id) of a key never resolved is harmless', async () => {
    await resolver.resolve(SECRET);
    resolver.invalidate(42);
    await resolver.resolve(SECRET);
    expect(store.calls.findActiveByHash).toBe(1);
  });

  it('returns what the store returns for any sequence of secrets, asking once per secret and TTL', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(SECRET, OTHER, 'psk_unknown'), { maxLength: 30 }), async (secrets) => {
        const local = new InMemoryApiKeyStore({ now: () => new Date(0) });
        const known = new Map<string, ApiKey>([[SECRET, await local.create(record(SECRET))]]);
        const cached = new ApiKeyResolver(local, () => 0);
        for (const secret of secrets) expect(await cached.resolve(secret)).toEqual(known.get(secret) ?? null);
        expect(local.calls.findActiveByHash).toBe(new Set(secrets).size);
      }),
    );
  });

  it('keeps valid keys apart from unknown ones: a flood of random secrets evicts no valid key', async () => {
    await store.create(record(SECRET));
    await resolver.resolve(SECRET);
    for (let i = 0; i < 20_000; i++) await resolver.resolve(`psk_flood-${i}`);
    store.resetCalls();
    expect(await resolver.resolve(SECRET)).not.toBeNull();
    expect(store.calls.findActiveByHash).toBe(0);
  });

  it('shares one lookup among concurrent misses for the same secret', async () => {
    await store.create(record(SECRET));
    const answers = await Promise.all(Array.from({ length: 50 }, () => resolver.resolve(SECRET)));
    expect(new Set(answers.map((key) => key?.id)).size).toBe(1);
    expect(store.calls.findActiveByHash).toBe(1);
    await Promise.all(Array.from({ length: 50 }, () => resolver.resolve(OTHER)));
    expect(store.calls.findActiveByHash).toBe(2);
  });

  describe('when the store cannot answer', () => {
    let flaky: InMemoryApiKeyStore;
    let local: ApiKeyResolver;
    beforeEach(() => {
      flaky = new InMemoryApiKeyStore({ now: () => new Date(clock) });
      local = new ApiKeyResolver(flaky, () => clock);
    });

    it('says so (KeyStoreUnavailableError, a 503), never "no key"', async () => {
      await flaky.create(record(SECRET));
      flaky.down = true;
      const error = await local.resolve(SECRET).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeyStoreUnavailableError);
      expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '5' } });
      await expect(local.resolve(OTHER)).rejects.toBeInstanceOf(KeyStoreUnavailableError);
      expect(local.stats.lookupFailures).toBe(2);
    });

    it('serves a key whose entry expired moments ago (stale-if-error), for a bounded grace', async () => {
      const key = await flaky.create(record(SECRET));
      await local.resolve(SECRET);
      flaky.down = true;
      clock += API_KEY_CACHE_TTL_MS + API_KEY_STALE_IF_ERROR_MS - 1;
      expect(await local.resolve(SECRET)).toEqual(key);
      expect(local.stats.staleServed).toBe(1);
      clock += 1;
      await expect(local.resolve(SECRET)).rejects.toBeInstanceOf(KeyStoreUnavailableError);
      flaky.down = false;
      expect(await local.resolve(SECRET)).toEqual(key);
    });

    it('keeps serving a fresh entry while a background refresh fails', async () => {
      const key = await flaky.create(record(SECRET));
      await local.resolve(SECRET);
      flaky.down = true;
      clock += API_KEY_REFRESH_AFTER_MS;
      expect(await local.resolve(SECRET)).toEqual(key);
      await new Promise((resolve) => setImmediate(resolve));
      expect(local.stats.lookupFailures).toBe(1);
      expect(await local.resolve(SECRET)).toEqual(key);
    });

    it('says so to every caller sharing the failed lookup, none of them "no key"', async () => {
      await flaky.create(record(SECRET));
      flaky.down = true;
      const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => local.resolve(SECRET)));
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({ status: 'rejected', reason: expect.any(KeyStoreUnavailableError) });
      }
      expect(local.stats.lookupFailures).toBe(1);
    });

    it('never serves stale a key revoked through this instance', async () => {
      const key = await flaky.create(record(SECRET));
      await local.resolve(SECRET);
      clock += PAST_TTL;
      await flaky.revoke(key.id);
      local.invalidate(key.id);
      flaky.down = true;
      await expect(local.resolve(SECRET)).rejects.toBeInstanceOf(KeyStoreUnavailableError);
    });

    it('drops an entry whose background refresh finds the key revoked, even for stale-if-error', async () => {
      const key = await flaky.create(record(SECRET));
      await local.resolve(SECRET);
      await flaky.revoke(key.id); // elsewhere
      clock += API_KEY_REFRESH_AFTER_MS;
      expect(local.resolveAtOnce(SECRET)).toEqual(key); // still within the TTL; the refresh starts
      await new Promise((resolve) => setImmediate(resolve));
      expect(local.resolveAtOnce(SECRET)).toBeNull();
      clock += PAST_TTL;
      flaky.down = true;
      await expect(local.resolve(SECRET)).rejects.toBeInstanceOf(KeyStoreUnavailableError);
    });

    it('never turns a failure into a cached miss', async () => {
      const key = await flaky.create(record(SECRET));
      flaky.down = true;
      await expect(local.resolve(SECRET)).rejects.toBeInstanceOf(KeyStoreUnavailableError);
      flaky.down = false;
      expect(await local.resolve(SECRET)).toEqual(key);
    });
  });

  describe('a revocation while a lookup is in flight', () => {
    /** A store whose next hash lookup reads its answer at once but delivers it only when released. */
    class SlowStore extends InMemoryApiKeyStore {
      private gate: Promise<void> | null = null;
      release: () => void = () => undefined;

      holdNextLookup(): void {
        this.gate = new Promise((resolve) => (this.release = resolve));
      }

      override async findActiveByHash(hash: string): Promise<ApiKey | null> {
        const answer = await super.findActiveByHash(hash);
        const gate = this.gate;
        this.gate = null;
        if (gate) await gate;
        return answer;
      }
    }

    it('does not leave the revoked key cached (changes through this instance apply at once)', async () => {
      const slow = new SlowStore({ now: () => new Date(clock) });
      const local = new ApiKeyResolver(slow, () => clock);
      const key = await slow.create(record(SECRET));

      slow.holdNextLookup();
      const inFlight = local.resolve(SECRET); // read the key while still active
      await slow.revoke(key.id);
      local.invalidate(key.id); // what ApiKeysService.revoke does
      slow.release();
      await inFlight;

      expect(await local.resolve(SECRET)).toBeNull();
    });
  });
});
