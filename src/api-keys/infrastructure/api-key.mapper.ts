import { type ApiKey, isScope, type NewApiKeyRecord } from '@petstore/auth';
import { fromInt8 } from '../../database/index.js';
import type { ApiKeyOrmEntity } from './api-key.orm-entity.js';

export const ApiKeyMapper = {
  toDomain(this: void, row: ApiKeyOrmEntity): ApiKey {
    return {
      id: fromInt8(row.id),
      name: row.name,
      prefix: row.prefix,
      plan: row.plan,
      scopes: row.scopes.filter(isScope),
      limits:
        row.limitPerMinute !== null && row.limitPerDay !== null
          ? { perMinute: row.limitPerMinute, perDay: row.limitPerDay }
          : null,
      createdAt: row.createdAt,
      revokedAt: row.revokedAt,
    };
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
    };
  },
};
