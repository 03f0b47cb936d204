import type { ApiKey, KeyLimits } from './api-key.js';
import type { Scope } from './scope.js';

/** Data needed to register a key; the secret itself never reaches the store. */
export interface NewApiKeyRecord {
  readonly name: string;
  readonly prefix: string;
  readonly hash: string;
  readonly plan: string;
  readonly scopes: readonly Scope[];
  readonly limits: KeyLimits | null;
  readonly expiresAt?: Date | null;
  readonly allowedAddresses?: readonly string[] | null;
  /** The account the key joins (its plan and limits are then the account's); absent or null: none. */
  readonly accountId?: number | null;
}

/** What a listing of keys is narrowed to. */
export interface ApiKeyFilter {
  /** Only the keys of this account. */
  readonly accountId?: number;
}

export interface ApiKeyChanges {
  readonly plan?: string;
  readonly scopes?: readonly Scope[];
  readonly limits?: KeyLimits | null;
  readonly expiresAt?: Date | null;
  readonly allowedAddresses?: readonly string[] | null;
  /** null takes the key out of its account. */
  readonly accountId?: number | null;
}

/** A new secret for a key: the current one becomes the previous one, working until `previousExpiresAt`. */
export interface ApiKeyRoll {
  readonly prefix: string;
  readonly hash: string;
  readonly previousExpiresAt: Date;
}

/** Port: where API keys live. Implemented by the application's persistence adapter. */
export abstract class ApiKeyStore {
  /** The unrevoked key whose current or previous secret has this hash (then marked `previousSecret`). */
  abstract findActiveByHash(hash: string): Promise<ApiKey | null>;
  abstract findById(id: number): Promise<ApiKey | null>;
  /** Keys with id > afterId (and matching `filter`), ascending, at most `limit`. */
  abstract list(afterId: number | null, limit: number, filter?: ApiKeyFilter): Promise<ApiKey[]>;
  abstract create(record: NewApiKeyRecord): Promise<ApiKey>;
  /** Registers the record only while no key exists at all (first start); null otherwise. */
  abstract createIfNoneExist(record: NewApiKeyRecord): Promise<ApiKey | null>;
  abstract update(id: number, changes: ApiKeyChanges): Promise<ApiKey | null>;
  abstract revoke(id: number): Promise<ApiKey | null>;
  /** Gives an unrevoked key a new secret, in one statement; null when no such key. */
  abstract roll(id: number, roll: ApiKeyRoll): Promise<ApiKey | null>;
  /** Ends the previous secret's overlap at `at` when it ends later; the key, or null when none. */
  abstract endOverlap(id: number, at: Date): Promise<ApiKey | null>;
}
