import type {
  ApiKey,
  ApiKeyAccount,
  ApiKeyChanges,
  ApiKeyFilter,
  ApiKeyRoll,
  ApiKeyStore,
  NewApiKeyRecord,
} from '@petstore/auth';

interface StoredKey {
  readonly key: ApiKey;
  readonly hash: string;
  /** The secret before the last roll. */
  readonly previousHash?: string;
}

export type ApiKeyStoreMethod = keyof ApiKeyStore;

export interface InMemoryApiKeyStoreOptions {
  /** Clock for `createdAt` and `revokedAt`. */
  readonly now?: () => Date;
}

/**
 * A faithful in-memory `ApiKeyStore`: ids from a sequence, only the hash and the
 * prefix of a key kept, revoked keys still listed and found by id but never by
 * hash, `createIfNoneExist` refusing once any key (even a revoked one) exists.
 * It counts calls per method, so tests can tell when a cache spared a lookup, and
 * keeps every record it was given, so tests can check what was stored.
 */
export class InMemoryApiKeyStore implements ApiKeyStore {
  readonly calls: Record<ApiKeyStoreMethod, number> = {
    findActiveByHash: 0,
    findById: 0,
    list: 0,
    create: 0,
    createIfNoneExist: 0,
    update: 0,
    revoke: 0,
    roll: 0,
    endOverlap: 0,
  };
  /** Every record handed to `create`/`createIfNoneExist` and accepted, in order. */
  readonly records: NewApiKeyRecord[] = [];
  /** While true, hash lookups fail as a stalled or unreachable key store's would (counted all the same). */
  down = false;
  private readonly rows = new Map<number, StoredKey>();
  private lastId = 0;
  private readonly now: () => Date;

  constructor(options: InMemoryApiKeyStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  /** The stored hash of a key, for assertions. */
  hashOf(id: number): string | undefined {
    return this.rows.get(id)?.hash;
  }

  get size(): number {
    return this.rows.size;
  }

  resetCalls(): void {
    for (const method of Object.keys(this.calls) as ApiKeyStoreMethod[]) this.calls[method] = 0;
  }

  async findActiveByHash(hash: string): Promise<ApiKey | null> {
    this.calls.findActiveByHash++;
    if (this.down) throw new Error('connection terminated');
    for (const row of this.rows.values()) {
      if (row.key.revokedAt !== null) continue;
      if (row.hash === hash) return copy(row.key);
      if (row.previousHash === hash) return { ...copy(row.key), previousSecret: true };
    }
    return null;
  }

  async findById(id: number): Promise<ApiKey | null> {
    this.calls.findById++;
    const row = this.rows.get(id);
    return row ? copy(row.key) : null;
  }

  async list(afterId: number | null, limit: number, filter: ApiKeyFilter = {}): Promise<ApiKey[]> {
    this.calls.list++;
    return [...this.rows.values()]
      .map((row) => row.key)
      .filter((key) => afterId === null || key.id > afterId)
      .filter((key) => filter.accountId === undefined || key.account?.id === filter.accountId)
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .map(copy);
  }

  async create(record: NewApiKeyRecord): Promise<ApiKey> {
    this.calls.create++;
    return this.insert(record);
  }

  async createIfNoneExist(record: NewApiKeyRecord): Promise<ApiKey | null> {
    this.calls.createIfNoneExist++;
    return this.rows.size === 0 ? this.insert(record) : null;
  }

  async update(id: number, changes: ApiKeyChanges): Promise<ApiKey | null> {
    this.calls.update++;
    const row = this.rows.get(id);
    if (!row) return null;
    const key: ApiKey = {
      ...row.key,
      ...(changes.plan !== undefined && { plan: changes.plan }),
      ...(changes.scopes !== undefined && { scopes: [...changes.scopes] }),
      ...(changes.limits !== undefined && { limits: changes.limits && { ...changes.limits } }),
      ...(changes.expiresAt !== undefined && { expiresAt: changes.expiresAt }),
      ...(changes.allowedAddresses !== undefined && {
        allowedAddresses: changes.allowedAddresses && [...changes.allowedAddresses],
      }),
      ...(changes.accountId !== undefined && { account: this.accountOf(changes.accountId) }),
    };
    this.rows.set(id, { ...row, key });
    return copy(key);
  }

  async revoke(id: number): Promise<ApiKey | null> {
    this.calls.revoke++;
    const row = this.rows.get(id);
    if (!row) return null;
    if (row.key.revokedAt !== null) return copy(row.key);
    const key: ApiKey = { ...row.key, revokedAt: this.now() };
    this.rows.set(id, { ...row, key });
    return copy(key);
  }

  async roll(id: number, roll: ApiKeyRoll): Promise<ApiKey | null> {
    this.calls.roll++;
    const row = this.rows.get(id);
    if (!row || row.key.revokedAt !== null) return null;
    const key: ApiKey = {
      ...row.key,
      prefix: roll.prefix,
      previousKeyExpiresAt: roll.previousExpiresAt,
      previousKeyLastUsedAt: null,
    };
    this.rows.set(id, { key, hash: roll.hash, previousHash: row.hash });
    return copy(key);
  }

  async endOverlap(id: number, at: Date): Promise<ApiKey | null> {
    this.calls.endOverlap++;
    const row = this.rows.get(id);
    if (!row) return null;
    const ends = row.key.previousKeyExpiresAt;
    if (ends && ends > at) this.rows.set(id, { ...row, key: { ...row.key, previousKeyExpiresAt: at } });
    return copy(this.rows.get(id)!.key);
  }

  /** Whether an unrevoked key is in the account (what deleting an account asks). */
  async hasLiveKeys(accountId: number): Promise<boolean> {
    return [...this.rows.values()].some(({ key }) => key.revokedAt === null && key.account?.id === accountId);
  }

  /** The account a key names; its counters' creation time is the fake's epoch (the ids are unique here). */
  private accountOf(accountId: number | null): ApiKeyAccount | null {
    return accountId === null ? null : { id: accountId, createdAt: new Date(0) };
  }

  private insert(record: NewApiKeyRecord): ApiKey {
    this.records.push(record);
    const key: ApiKey = {
      id: ++this.lastId,
      name: record.name,
      prefix: record.prefix,
      plan: record.plan,
      scopes: [...record.scopes],
      limits: record.limits && { ...record.limits },
      createdAt: this.now(),
      revokedAt: null,
      expiresAt: record.expiresAt ?? null,
      allowedAddresses: record.allowedAddresses ? [...record.allowedAddresses] : null,
      lastUsedAt: null,
      previousKeyExpiresAt: null,
      previousKeyLastUsedAt: null,
      account: this.accountOf(record.accountId ?? null),
    };
    this.rows.set(key.id, { key, hash: record.hash });
    return copy(key);
  }
}

function copy(key: ApiKey): ApiKey {
  return Object.freeze({
    ...key,
    scopes: Object.freeze([...key.scopes]),
    limits: key.limits && Object.freeze({ ...key.limits }),
  });
}
