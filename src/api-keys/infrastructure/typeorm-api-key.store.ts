import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ApiKey, ApiKeyChanges, ApiKeyRoll, ApiKeyStore, NewApiKeyRecord } from '@petstore/auth';
import { IsNull, MoreThan, type Repository } from 'typeorm';
import { managerOf, toInt8 } from '../../database/index.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { TransactionalApiKeyStore } from '../domain/transactional-api-key.store.js';
import { ApiKeyMapper } from './api-key.mapper.js';
import { ApiKeyOrmEntity } from './api-key.orm-entity.js';

// Serialises first-start registration across instances sharing one database.
const BOOTSTRAP_LOCK = 7_301_001;

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
    const row = await this.rows.findOneBy([
      { keyHash: hash, revokedAt: IsNull() },
      { previousKeyHash: hash, revokedAt: IsNull() },
    ]);
    return row && ApiKeyMapper.toDomainByHash(row, hash);
  }

  async findById(id: number): Promise<ApiKey | null> {
    const row = await this.rows.findOne({
      where: { id: toInt8(id) },
      ...(this.lockOnRead ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row && ApiKeyMapper.toDomain(row);
  }

  async list(afterId: number | null, limit: number): Promise<ApiKey[]> {
    const rows = await this.rows.find({
      where: afterId === null ? {} : { id: MoreThan(toInt8(afterId)) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map(ApiKeyMapper.toDomain);
  }

  async create(record: NewApiKeyRecord): Promise<ApiKey> {
    return ApiKeyMapper.toDomain(await this.rows.save(this.rows.create(ApiKeyMapper.toColumns(record))));
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
    const result = await this.rows.update({ id: toInt8(id) }, columns);
    return result.affected ? this.findById(id) : null;
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
