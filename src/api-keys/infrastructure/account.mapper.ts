import type { KeyLimits } from '@petstore/auth';
import { fromInt8 } from '../../database/index.js';
import type { Account } from '../domain/account.js';
import type { AccountOrmEntity } from './account.orm-entity.js';

export const AccountMapper = {
  toDomain(this: void, row: AccountOrmEntity): Account {
    return {
      id: fromInt8(row.id),
      name: row.name,
      plan: row.plan,
      limits: limitsOf(row),
      externalId: row.externalId,
      createdAt: row.createdAt,
    };
  },
};

/** Own quota columns (a key's or an account's) as limits; null unless both are set. */
export function limitsOf(row: { limitPerMinute: number | null; limitPerDay: number | null }): KeyLimits | null {
  return row.limitPerMinute !== null && row.limitPerDay !== null
    ? { perMinute: row.limitPerMinute, perDay: row.limitPerDay }
    : null;
}
