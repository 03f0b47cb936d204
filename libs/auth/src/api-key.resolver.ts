import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { ApiKey } from './api-key.js';
import { hashApiKeySecret } from './api-key-secret.js';
import type { ApiKeyStore } from './api-key.store.js';
import { KeyStoreUnavailableError } from './key-store-unavailable.error.js';

/**
 * How long a resolved key is trusted without asking the store: a revocation or a
 * limit change made through another instance applies here within this bound.
 */
export const API_KEY_CACHE_TTL_MS = 10_000;
/** A key in use is looked up again in the background once its entry is this old, so it never waits on the store. */
export const API_KEY_REFRESH_AFTER_MS = 8_000;
/**
 * While the store cannot answer, an entry that expired at most this long ago is
 * still served (stale-if-error): a database hiccup does not lock out paying keys.
 * Revocations on other instances then apply within TTL + this grace.
 */
export const API_KEY_STALE_IF_ERROR_MS = 60_000;
/** Valid keys kept; an unknown secret never takes a place here. */
const MAX_KEYS = 10_000;
/** Unknown secrets remembered, so repeating one costs no lookup; a flood only churns this cache. */
const MAX_UNKNOWN = 2_000;
const FAILURE_LOG_INTERVAL_MS = 10_000;

interface KeyEntry {
  readonly key: ApiKey;
  readonly fetchedAt: number;
}

/** Counts for metrics: lookups that failed, and requests served from a stale entry meanwhile. */
export interface KeyResolverStats {
  lookupFailures: number;
  staleServed: number;
}

/**
 * Turns a presented secret into its key (or null for an unknown or revoked one),
 * caching by hash so a request costs no database round trip. Changes made through
 * this instance invalidate at once. Concurrent misses for one secret share one
 * lookup; a busy key is refreshed before it expires; valid and unknown secrets are
 * kept in separate bounded LRU caches. When the store fails and no usable entry
 * exists, `resolve` throws `KeyStoreUnavailableError`: never "no key".
 */
export class ApiKeyResolver {
  readonly stats: KeyResolverStats = { lookupFailures: 0, staleServed: 0 };
  private readonly keys = new LRUCache<string, KeyEntry>({ max: MAX_KEYS });
  private readonly unknown = new LRUCache<string, number>({ max: MAX_UNKNOWN });
  private readonly inFlight = new Map<string, Promise<ApiKey | null>>();
  /** Bumped by every invalidation, so a lookup that raced with one is not cached. */
  private generation = 0;
  private readonly logger = new Logger('ApiKeys');
  private lastFailureLogAt = Number.NEGATIVE_INFINITY;
  private failuresSinceLog = 0;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(secret: string): Promise<ApiKey | null> {
    const hash = hashApiKeySecret(secret);
    const now = this.now();
    const known = this.cached(hash, now);
    return known !== undefined ? known : this.resolveFromStore(hash, now);
  }

  /**
   * The answer when the caches have it (a key, or null for a secret known to be
   * unknown), without a promise; undefined when only the store can say (then call
   * `resolve`). A key in use whose entry is getting old is refreshed in the background.
   */
  resolveAtOnce(secret: string): ApiKey | null | undefined {
    return this.cached(hashApiKeySecret(secret), this.now());
  }

  private cached(hash: string, now: number): ApiKey | null | undefined {
    const entry = this.keys.get(hash);
    if (entry) {
      const age = now - entry.fetchedAt;
      if (age < API_KEY_REFRESH_AFTER_MS) return entry.key;
      if (age < API_KEY_CACHE_TTL_MS) {
        this.lookup(hash).catch(() => undefined); // refreshed in the background; failures are counted there
        return entry.key;
      }
      return undefined;
    }
    const unknownUntil = this.unknown.get(hash);
    return unknownUntil !== undefined && unknownUntil > now ? null : undefined;
  }

  private async resolveFromStore(hash: string, now: number): Promise<ApiKey | null> {
    const entry = this.keys.get(hash);
    try {
      return await this.lookup(hash);
    } catch (error) {
      if (entry && now - entry.fetchedAt < API_KEY_CACHE_TTL_MS + API_KEY_STALE_IF_ERROR_MS) {
        this.stats.staleServed++;
        return entry.key;
      }
      throw new KeyStoreUnavailableError(error);
    }
  }

  /** Forget a key after it changed or was revoked. */
  invalidate(keyId: number): void {
    this.generation++;
    for (const [hash, entry] of this.keys.entries()) {
      if (entry.key.id === keyId) this.keys.delete(hash);
    }
  }

  /** Forget a cached miss, so a key created just now is usable at once. */
  invalidateHash(hash: string): void {
    this.generation++;
    this.keys.delete(hash);
    this.unknown.delete(hash);
  }

  /** One store lookup per hash at a time; its answer is cached unless an invalidation raced with it. */
  private lookup(hash: string): Promise<ApiKey | null> {
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    const generation = this.generation;
    const lookup = this.store.findActiveByHash(hash).then(
      (key) => {
        if (generation === this.generation) this.remember(hash, key);
        return key;
      },
      (error: unknown) => {
        this.failed(error);
        throw error;
      },
    );
    this.inFlight.set(hash, lookup);
    void lookup.finally(() => this.inFlight.delete(hash)).catch(() => undefined);
    return lookup;
  }

  private remember(hash: string, key: ApiKey | null): void {
    const now = this.now();
    if (key) {
      this.keys.set(hash, { key, fetchedAt: now });
      this.unknown.delete(hash);
    } else {
      this.keys.delete(hash);
      this.unknown.set(hash, now + API_KEY_CACHE_TTL_MS);
    }
  }

  /** Counted always, logged at most every 10 s (with how many failed meanwhile); the error names no key. */
  private failed(error: unknown): void {
    this.stats.lookupFailures++;
    this.failuresSinceLog++;
    const now = this.now();
    if (now - this.lastFailureLogAt < FAILURE_LOG_INTERVAL_MS) return;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(`API key lookups are failing (${this.failuresSinceLog} since the last report): ${reason}`);
    this.lastFailureLogAt = now;
    this.failuresSinceLog = 0;
  }
}
