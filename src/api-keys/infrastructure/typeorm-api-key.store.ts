import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ApiKey, ApiKeyChanges, ApiKeyFilter, ApiKeyRoll, ApiKeyStore, NewApiKeyRecord } from '@petstore/auth';
import { IsNull, MoreThan, type Repository } from 'typeorm';
import { fromInt8, managerOf, PG_FOREIGN_KEY_VIOLATION, toInt8, violatedConstraint } from '../../database/index.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import { ReferencedAccountNotFoundError } from '../domain/account.errors.js';
import type { TransactionalApiKeyStore } from '../domain/transactional-api-key.store.js';
import { ApiKeyMapper } from './api-key.mapper.js';
import { ApiKeyOrmEntity } from './api-key.orm-entity.js';

// Serialises first-start registration across instances sharing one database.
const BOOTSTRAP_LOCK = 7_301_001;
/** A key's account comes with it: its plan, limits and shared windows are the account's. */
const WITH_ACCOUNT = { account: true } as const;

@Injectable()
export class TypeOrmApiKeyStore implements ApiKeyStore, TransactionalApiKeyStore {
  /** Set on a store bound to a transaction: reading a key locks its row until the commit. */
  private lockOnRead = false;

  constructor(@InjectRepository(ApiKeyOrmEntity) private readonly rows: Repository<ApiKeyOrmEntity>) {}

  in(tx: Transaction): ApiKeyStore {
    const store = new TypeOrmApiKeyStore(managerOf(tx).getRepository(ApiKeyOrmEntity));
    store.lockOnRead = true;
    return store;
  }

  async findActiveByHash(hash: string): Promise<ApiKey | null> {
    const row = await this.rows.findOne({
      where: [
        { keyHash: hash, revokedAt: IsNull() },
        { previousKeyHash: hash, revokedAt: IsNull() },
      ],
      relations: WITH_ACCOUNT,
    });
    return row && ApiKeyMapper.toDomainByHash(row, hash);
  }

  async findById(id: number): Promise<ApiKey | null> {
    if (this.lockOnRead) {
      // The key's row alone: PostgreSQL refuses FOR UPDATE on the nullable side of the account's outer join.
      const locked = await this.rows.findOne({
        where: { id: toInt8(id) },
        select: { id: true },
        lock: { mode: 'pessimistic_write' },
      });
      if (!locked) return null;
    }
    const row = await this.rows.findOne({ where: { id: toInt8(id) }, relations: WITH_ACCOUNT });
    return row && ApiKeyMapper.toDomain(row);
  }

  async list(afterId: number | null, limit: number, filter: ApiKeyFilter = {}): Promise<ApiKey[]> {
    const rows = await this.rows.find({
      where: {
        ...(afterId !== null && { id: MoreThan(toInt8(afterId)) }),
        ...(filter.accountId !== undefined && { accountId: toInt8(filter.accountId) }),
      },
      relations: WITH_ACCOUNT,
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map(ApiKeyMapper.toDomain);
  }

  async create(record: NewApiKeyRecord): Promise<ApiKey> {
    let saved: ApiKeyOrmEntity;
    try {
      saved = await this.rows.save(this.rows.create(ApiKeyMapper.toColumns(record)));
    } catch (error) {
      throw accountGone(error, record.accountId);
    }
    return (await this.findById(fromInt8(saved.id))) ?? ApiKeyMapper.toDomain(saved);
  }

  createIfNoneExist(record: NewApiKeyRecord): Promise<ApiKey | null> {
    return this.rows.manager.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
      const repo = manager.getRepository(ApiKeyOrmEntity);
      if (await repo.exists()) return null;
      return ApiKeyMapper.toDomain(await repo.save(repo.create(ApiKeyMapper.toColumns(record))));
    });
  }

  async update(id: number, changes: ApiKeyChanges): Promise<ApiKey | null> {
    const columns: Partial<ApiKeyOrmEntity> = {};
    if (changes.plan !== undefined) columns.plan = changes.plan;
    if (changes.scopes !== undefined) columns.scopes = [...changes.scopes];
    if (changes.limits !== undefined) {
      columns.limitPerMinute = changes.limits?.perMinute ?? null;
      columns.limitPerDay = changes.limits?.perDay ?? null;
    }
    if (changes.expiresAt !== undefined) columns.expiresAt = changes.expiresAt;
    if (changes.allowedAddresses !== undefined) {
      columns.allowedAddresses = changes.allowedAddresses && [...changes.allowedAddresses];
    }
    if (changes.accountId !== undefined) {
      columns.accountId = changes.accountId === null ? null : toInt8(changes.accountId);
    }
    let affected: number | undefined;
    try {
      affected = (await this.rows.update({ id: toInt8(id) }, columns)).affected;
    } catch (error) {
      throw accountGone(error, changes.accountId);
    }
    return affected ? this.findById(id) : null;
  }

  async roll(id: number, roll: ApiKeyRoll): Promise<ApiKey | null> {
    // One statement: the current hash becomes the previous one (any older previous secret
    // ends here), so two concurrent rolls cannot both keep the same secret alive.
    const result = await this.rows
      .createQueryBuilder()
      .update(ApiKeyOrmEntity)
      .set({
        previousKeyHash: () => 'key_hash',
        keyHash: roll.hash,
        prefix: roll.prefix,
        previousKeyExpiresAt: roll.previousExpiresAt,
        previousKeyLastUsedAt: null,
      })
      .where('id = :id AND revoked_at IS NULL', { id: toInt8(id) })
      .execute();
    return result.affected ? this.findById(id) : null;
  }

  async endOverlap(id: number, at: Date): Promise<ApiKey | null> {
    await this.rows
      .createQueryBuilder()
      .update(ApiKeyOrmEntity)
      .set({ previousKeyExpiresAt: at })
      .where('id = :id AND previous_key_expires_at > :at', { id: toInt8(id), at })
      .execute();
    return this.findById(id);
  }

  async revoke(id: number): Promise<ApiKey | null> {
    await this.rows.update({ id: toInt8(id), revokedAt: IsNull() }, { revokedAt: new Date() });
    return this.findById(id);
  }
}

/** A key joining an account that was deleted meanwhile: the body names a missing account (422). */
function accountGone(error: unknown, accountId: number | null | undefined): unknown {
  return accountId != null && violatedConstraint(error, PG_FOREIGN_KEY_VIOLATION) === 'FK_api_keys_account'
    ? new ReferencedAccountNotFoundError(accountId)
    : error;
}
