import type { ApiKey } from './api-key.js';
import { hashApiKeySecret } from './api-key-secret.js';
import type { ApiKeyStore } from './api-key.store.js';

interface CacheEntry {
  readonly key: ApiKey | null;
  readonly expiresAt: number;
}

/** How long a resolved (or rejected) key is trusted without asking the store. */
export const API_KEY_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

/**
 * Turns a presented secret into its key, caching by hash so a request costs no
 * database round trip. Changes made through this instance invalidate at once;
 * other instances see them within the TTL. Built by `AuthModule` from the store.
 */
export class ApiKeyResolver {
  private readonly cache = new Map<string, CacheEntry>();
  /** Bumped by every invalidation, so a lookup that raced with one is not cached. */
  private generation = 0;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(secret: string): Promise<ApiKey | null> {
    const hash = hashApiKeySecret(secret);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > this.now()) return cached.key;
    const generation = this.generation;
    const key = await this.store.findActiveByHash(hash);
    if (generation !== this.generation) return key;
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(hash, { key, expiresAt: this.now() + API_KEY_CACHE_TTL_MS });
    return key;
  }

  /** Forget a key after it changed or was revoked. */
  invalidate(keyId: number): void {
    this.generation++;
    for (const [hash, entry] of this.cache) {
      if (entry.key?.id === keyId) this.cache.delete(hash);
    }
  }

  /** Forget a cached miss, so a key created just now is usable at once. */
  invalidateHash(hash: string): void {
    this.generation++;
    this.cache.delete(hash);
  }
}
