import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, LessThan } from 'typeorm';
import { IDEMPOTENCY_RETENTION_MS, type IdempotencyRepository } from '../domain/idempotency.js';
import { IdempotencyKeyOrmEntity } from './idempotency-key.orm-entity.js';

/** Idempotency records in PostgreSQL (claimed and written by `orders_place`): their sweep. */
@Injectable()
export class TypeOrmIdempotencyRepository implements IdempotencyRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async deleteExpired(now: Date): Promise<number> {
    const result = await this.db
      .getRepository(IdempotencyKeyOrmEntity)
      .delete({ createdAt: LessThan(new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)) });
    return result.affected ?? 0;
  }
}
