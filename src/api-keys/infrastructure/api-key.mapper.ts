import { type ApiKey, isScope, type NewApiKeyRecord } from '@petstore/auth';
import { fromInt8, toInt8 } from '../../database/index.js';
import { limitsOf } from './account.mapper.js';
import type { ApiKeyOrmEntity } from './api-key.orm-entity.js';

export const ApiKeyMapper = {
  /** `row.account` must be loaded with it: a key in an account has the account's plan and limits. */
  toDomain(this: void, row: ApiKeyOrmEntity): ApiKey {
    const { account } = row;
    return {
      id: fromInt8(row.id),
      name: row.name,
      prefix: row.prefix,
      plan: account ? account.plan : row.plan,
      scopes: row.scopes.filter(isScope),
      limits: limitsOf(account ?? row),
      account: account ? { id: fromInt8(account.id), createdAt: account.createdAt } : null,
      createdAt: row.createdAt,
      revokedAt: row.revokedAt,
      expiresAt: row.expiresAt,
      allowedAddresses: row.allowedAddresses,
      lastUsedAt: row.lastUsedAt,
      previousKeyExpiresAt: row.previousKeyExpiresAt,
      previousKeyLastUsedAt: row.previousKeyLastUsedAt,
    };
  },
  /** The key as found by a secret's hash: a previous secret's marks it `previousSecret`. */
  toDomainByHash(this: void, row: ApiKeyOrmEntity, hash: string): ApiKey {
    const key = ApiKeyMapper.toDomain(row);
    return hash === row.keyHash ? key : { ...key, previousSecret: true };
  },
  toColumns(record: NewApiKeyRecord): Partial<ApiKeyOrmEntity> {
    return {
      name: record.name,
      prefix: record.prefix,
      keyHash: record.hash,
      plan: record.plan,
      scopes: [...record.scopes],
      limitPerMinute: record.limits?.perMinute ?? null,
      limitPerDay: record.limits?.perDay ?? null,
      expiresAt: record.expiresAt ?? null,
      allowedAddresses: record.allowedAddresses ? [...record.allowedAddresses] : null,
      accountId: record.accountId == null ? null : toInt8(record.accountId),
    };
  },
};
