import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, LessThan } from 'typeorm';
import { managerOf, toInt8 } from '../../database/index.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import {
  IDEMPOTENCY_RETENTION_MS,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type OrderOutcome,
} from '../domain/idempotency.js';
import { IdempotencyKeyOrmEntity } from './idempotency-key.orm-entity.js';
import { type OrderJson, OrderMapper } from './order.mapper.js';

/**
 * Takes an Idempotency-Key ($1 API key id, $2 key, $3 request hash, $4 now, $5
 * expiry bound): inserting takes it; a concurrent request inserting the same key
 * waits on the primary key until this transaction ends; an expired record is
 * taken over. A row: taken.
 */
const CLAIM_KEY = `INSERT INTO idempotency_keys (api_key_id, key, request_hash, outcome, created_at)
  VALUES ($1, $2, $3, NULL, $4)
  ON CONFLICT (api_key_id, key) DO UPDATE
     SET request_hash = EXCLUDED.request_hash, outcome = NULL, created_at = EXCLUDED.created_at
   WHERE idempotency_keys.created_at < $5
  RETURNING 1`;

type StoredOutcome = { kind: 'placed'; order: OrderJson } | Extract<OrderOutcome, { kind: 'refused' }>;

/** Idempotency records in PostgreSQL; claims and records in the use case's transaction. */
@Injectable()
export class TypeOrmIdempotencyRepository implements IdempotencyRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async claim(
    ownerKeyId: number,
    key: string,
    requestHash: string,
    now: Date,
    tx: Transaction,
  ): Promise<IdempotencyRecord | null> {
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
    const db = managerOf(tx);
    const claimed = await db.query<unknown[]>(CLAIM_KEY, [toInt8(ownerKeyId), key, requestHash, now, expiredBefore]);
    if (claimed.length > 0) return null;
    const row = await db.getRepository(IdempotencyKeyOrmEntity).findOneBy({ apiKeyId: toInt8(ownerKeyId), key });
    const outcome = row?.outcome as StoredOutcome | null | undefined;
    if (!row || !outcome) throw new Error('idempotency record without outcome after its request ended');
    return { requestHash: row.requestHash, outcome: fromStored(outcome) };
  }

  async record(ownerKeyId: number, key: string, outcome: OrderOutcome, tx: Transaction): Promise<void> {
    await managerOf(tx)
      .getRepository(IdempotencyKeyOrmEntity)
      .update({ apiKeyId: toInt8(ownerKeyId), key }, { outcome: toStored(outcome) });
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await this.db
      .getRepository(IdempotencyKeyOrmEntity)
      .delete({ createdAt: LessThan(new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)) });
    return result.affected ?? 0;
  }
}

function toStored(outcome: OrderOutcome): StoredOutcome {
  return outcome.kind === 'placed' ? { kind: 'placed', order: OrderMapper.toJson(outcome.order) } : outcome;
}

function fromStored(stored: StoredOutcome): OrderOutcome {
  return stored.kind === 'placed' ? { kind: 'placed', order: OrderMapper.fromJson(stored.order) } : stored;
}
