import type { Scope } from './scope.js';

/** Per-key quota, only carried by enterprise keys. */
export interface KeyLimits {
  readonly perMinute: number;
  readonly perDay: number;
}

/** The account a key belongs to: its windows are shared by all the account's keys. */
export interface ApiKeyAccount {
  readonly id: number;
  /** With the id, names the account's shared counters (ids reused after a database reset start afresh). */
  readonly createdAt: Date;
}

/** A stored API key: never the key itself, only its hash and a readable prefix. */
export interface ApiKey {
  readonly id: number;
  readonly name: string;
  /** The first characters of the key (`psk_ab12…`), enough to recognise it. */
  readonly prefix: string;
  /** The key's plan; for a key in an account, the account's (the key has none of its own then). */
  readonly plan: string;
  readonly scopes: readonly Scope[];
  /** Own quota (enterprise); for a key in an account, the account's. */
  readonly limits: KeyLimits | null;
  /** The account the key belongs to; absent or null: none (the key is counted alone). */
  readonly account?: ApiKeyAccount | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  /** After this instant the key answers 401 `API_KEY_EXPIRED`; null: never. */
  readonly expiresAt: Date | null;
  /** Addresses and CIDR ranges the key may be used from; null: anywhere. */
  readonly allowedAddresses: readonly string[] | null;
  /** When the key was last used, as of the last usage flush. */
  readonly lastUsedAt: Date | null;
  /** While a roll's overlap lasts (or after it ended): when the previous secret stops(ped) working. */
  readonly previousKeyExpiresAt: Date | null;
  /** When the previous secret was last used, as of the last usage flush. */
  readonly previousKeyLastUsedAt: Date | null;
  /**
   * Set on the key as resolved from its previous secret (after a roll): that secret
   * works only until `previousKeyExpiresAt`. Absent for the current secret and in listings.
   */
  readonly previousSecret?: true;
}

export function hasScope(key: ApiKey, scope: Scope): boolean {
  return key.scopes.includes(scope);
}

/**
 * Whether the secret that resolved to `key` no longer works at `nowMs`: the key's
 * expiry, or for a previous secret the end of the roll's overlap. Checked against the
 * clock on every request, since a resolved key is cached for seconds.
 */
export function isExpired(key: ApiKey, nowMs: number): boolean {
  if (key.expiresAt && key.expiresAt.getTime() <= nowMs) return true;
  if (!key.previousSecret) return false;
  return !key.previousKeyExpiresAt || key.previousKeyExpiresAt.getTime() <= nowMs;
}
