import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ApiKey, ApiKeyChanges, ApiKeyStore, NewApiKeyRecord } from '@petstore/auth';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { toInt8 } from '../../database/index.js';
import { ApiKeyMapper } from './api-key.mapper.js';
import { ApiKeyOrmEntity } from './api-key.orm-entity.js';

// Serialises first-start registration across instances sharing one database.
const BOOTSTRAP_LOCK = 7_301_001;

@Injectable()
export class TypeOrmApiKeyStore implements ApiKeyStore {
  constructor(@InjectRepository(ApiKeyOrmEntity) private readonly rows: Repository<ApiKeyOrmEntity>) {}

  async findActiveByHash(hash: string): Promise<ApiKey | null> {
    const row = await this.rows.findOneBy({ keyHash: hash, revokedAt: IsNull() });
    return row && ApiKeyMapper.toDomain(row);
  }

  async findById(id: number): Promise<ApiKey | null> {
    const row = await this.rows.findOneBy({ id: toInt8(id) });
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
    const result = await this.rows.update({ id: toInt8(id) }, columns);
    return result.affected ? this.findById(id) : null;
  }

  async revoke(id: number): Promise<ApiKey | null> {
    await this.rows.update({ id: toInt8(id), revokedAt: IsNull() }, { revokedAt: new Date() });
    return this.findById(id);
  }
}
