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
/** Lookups abandoned because an invalidation raced with them are asked again, this many times at most. */
const MAX_ATTEMPTS = 3;

/** Counts for metrics: lookups that failed, and requests served from a stale entry meanwhile. */
export interface KeyResolverStats {
  lookupFailures: number;
  staleServed: number;
}

/** The store answered: no active key has this hash. */
class NoActiveKey extends Error {}
/** An invalidation happened while the store was answering: the answer may predate it. */
class RacedWithInvalidation extends Error {}

/**
 * Turns a presented secret into its key (or null for an unknown or revoked one),
 * caching by hash so a request costs no database round trip. Changes made through
 * this instance invalidate at once. Valid keys live in an `lru-cache` whose
 * `fetchMethod` asks the store: concurrent misses for one secret share one lookup,
 * a busy key is refreshed before it expires (`forceRefresh` with `allowStale`), and
 * a failed lookup keeps the expired entry (`noDeleteOnFetchRejection`) for
 * stale-if-error. Unknown secrets live in a second, smaller LRU. When the store
 * fails and no usable entry exists, `resolve` throws `KeyStoreUnavailableError`:
 * never "no key".
 */
export class ApiKeyResolver {
  readonly stats: KeyResolverStats = { lookupFailures: 0, staleServed: 0 };
  private readonly keys: LRUCache<string, ApiKey>;
  private readonly unknown: LRUCache<string, true>;
  /** Bumped by every invalidation, so a first lookup that raced with one is not cached. */
  private generation = 0;
  private readonly logger = new Logger('ApiKeys');
  private lastFailureLogAt = Number.NEGATIVE_INFINITY;
  private failuresSinceLog = 0;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly now: () => number = () => performance.now(),
    /** Wall-clock time (ms) against which keys' expiries are judged on each request. */
    readonly wallClock: () => number = Date.now,
  ) {
    // The clock is read on every check (no `ttlResolution` caching), so a test's clock is exact.
    const clock = { perf: { now }, ttlResolution: 0 };
    this.keys = new LRUCache<string, ApiKey>({
      ...clock,
      max: MAX_KEYS,
      ttl: API_KEY_CACHE_TTL_MS,
      // An expired entry is not served while the store answers, but kept for stale-if-error.
      allowStale: false,
      noDeleteOnStaleGet: true,
      // Not `allowStaleOnFetchRejection`: a caller that joined a failed lookup would then get
      // `undefined` when no entry exists, which reads as "no such key" (401) instead of a 503.
      noDeleteOnFetchRejection: true,
      fetchMethod: (hash, _stale, { options }) => this.lookup(hash, options),
    });
    this.unknown = new LRUCache<string, true>({ ...clock, max: MAX_UNKNOWN, ttl: API_KEY_CACHE_TTL_MS });
  }

  async resolve(secret: string): Promise<ApiKey | null> {
    const hash = hashApiKeySecret(secret);
    const known = this.cached(hash);
    if (known !== undefined) return known;
    for (let attempt = 1; ; attempt++) {
      try {
        const key = await this.keys.fetch(hash);
        if (key) return key;
      } catch (error) {
        if (error instanceof NoActiveKey) return null;
        if (error instanceof KeyStoreUnavailableError) return this.staleIfError(hash, error);
        // Abandoned: an invalidation raced with the lookup, or deleted its entry. Ask again.
        if (attempt >= MAX_ATTEMPTS) throw new KeyStoreUnavailableError(error);
      }
    }
  }

  /**
   * The answer when the caches have it (a key, or null for a secret known to be
   * unknown), without a promise; undefined when only the store can say (then call
   * `resolve`). A key in use whose entry is getting old is refreshed in the background.
   */
  resolveAtOnce(secret: string): ApiKey | null | undefined {
    return this.cached(hashApiKeySecret(secret));
  }

  private cached(hash: string): ApiKey | null | undefined {
    const key = this.keys.get(hash);
    if (key) {
      if (this.keys.getRemainingTTL(hash) <= API_KEY_CACHE_TTL_MS - API_KEY_REFRESH_AFTER_MS) {
        // Answers the current entry at once; the lookup runs beside it (failures are counted there).
        void this.keys.fetch(hash, { forceRefresh: true, allowStale: true }).catch(() => undefined);
      }
      return key;
    }
    return this.unknown.has(hash) ? null : undefined;
  }

  /** The expired entry when it expired less than the grace ago; else the store's failure. */
  private staleIfError(hash: string, error: KeyStoreUnavailableError): ApiKey {
    const stale = this.keys.get(hash, { allowStale: true });
    if (stale && -this.keys.getRemainingTTL(hash) < API_KEY_STALE_IF_ERROR_MS) {
      this.stats.staleServed++;
      return stale;
    }
    throw error;
  }

  /** Forget a key after it changed or was revoked. */
  invalidate(keyId: number): void {
    this.generation++;
    // dump() lists every entry: expired ones (kept for stale-if-error) and those being refreshed too.
    for (const [hash, { value }] of this.keys.dump()) {
      if (value.id === keyId) this.keys.delete(hash);
    }
  }

  /** Forget every key of an account after the account changed (its plan, its limits). */
  invalidateAccount(accountId: number): void {
    this.generation++;
    for (const [hash, { value }] of this.keys.dump()) {
      if (value.account?.id === accountId) this.keys.delete(hash);
    }
  }

  /** Forget a cached miss, so a key created just now is usable at once. */
  invalidateHash(hash: string): void {
    this.generation++;
    this.keys.delete(hash);
    this.unknown.delete(hash);
  }

  /**
   * The cache's `fetchMethod`. A key is cached; no key is remembered among the
   * unknown secrets and drops any entry the hash had (a rejection, with
   * `noDeleteOnFetchRejection` turned off for this lookup); a store failure keeps
   * the entry for stale-if-error.
   */
  private async lookup(hash: string, options: LRUCache.FetcherFetchOptions<string, ApiKey>): Promise<ApiKey> {
    const generation = this.generation;
    let key: ApiKey | null;
    try {
      key = await this.store.findActiveByHash(hash);
    } catch (error) {
      this.failed(error);
      throw new KeyStoreUnavailableError(error);
    }
    if (generation !== this.generation) throw new RacedWithInvalidation();
    if (key) {
      this.unknown.delete(hash);
      return key;
    }
    this.unknown.set(hash, true);
    options.noDeleteOnFetchRejection = false;
    throw new NoActiveKey();
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
