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
}

export interface ApiKeyChanges {
  readonly plan?: string;
  readonly scopes?: readonly Scope[];
  readonly limits?: KeyLimits | null;
}

/** Port: where API keys live. Implemented by the application's persistence adapter. */
export abstract class ApiKeyStore {
  abstract findActiveByHash(hash: string): Promise<ApiKey | null>;
  abstract findById(id: number): Promise<ApiKey | null>;
  /** Keys with id > afterId, ascending, at most `limit`. */
  abstract list(afterId: number | null, limit: number): Promise<ApiKey[]>;
  abstract create(record: NewApiKeyRecord): Promise<ApiKey>;
  /** Registers the record only while no key exists at all (first start); null otherwise. */
  abstract createIfNoneExist(record: NewApiKeyRecord): Promise<ApiKey | null>;
  abstract update(id: number, changes: ApiKeyChanges): Promise<ApiKey | null>;
  abstract revoke(id: number): Promise<ApiKey | null>;
}
