import type { Scope } from './scope.js';

/** Per-key quota, only carried by enterprise keys. */
export interface KeyLimits {
  readonly perMinute: number;
  readonly perDay: number;
}

/** A stored API key: never the key itself, only its hash and a readable prefix. */
export interface ApiKey {
  readonly id: number;
  readonly name: string;
  /** The first characters of the key (`psk_ab12…`), enough to recognise it. */
  readonly prefix: string;
  readonly plan: string;
  readonly scopes: readonly Scope[];
  readonly limits: KeyLimits | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

export function hasScope(key: ApiKey, scope: Scope): boolean {
  return key.scopes.includes(scope);
}
