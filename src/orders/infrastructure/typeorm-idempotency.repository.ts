import type { EntityManager } from 'typeorm';
import { toInt8 } from '../../database/int8.js';
import type { Statement } from '../../database/prepared-sql.js';
import { managerOf, preparedRowsIn, runAtCommit } from '../../database/typeorm-transaction.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import {
  IDEMPOTENCY_RETENTION_MS,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type OrderOutcome,
} from '../domain/idempotency.js';
import { type OrderJson, OrderMapper } from './order.mapper.js';

/**
 * Takes an Idempotency-Key ($1 API key id, $2 key, $3 request hash, $4 now, $5
 * expiry bound): inserting takes it; a concurrent request inserting the same key
 * waits on the primary key until this transaction ends; an expired record is
 * taken over. A row: taken. The first statement of an idempotent order, so it
 * carries the BEGIN.
 */
const CLAIM_KEY: Statement = {
  name: 'orders_claim_idempotency_key',
  text: `INSERT INTO idempotency_keys (api_key_id, key, request_hash, outcome, created_at)
         VALUES ($1, $2, $3, NULL, $4)
         ON CONFLICT (api_key_id, key) DO UPDATE
            SET request_hash = EXCLUDED.request_hash, outcome = NULL, created_at = EXCLUDED.created_at
          WHERE idempotency_keys.created_at < $5
         RETURNING 1`,
};

/** Stores the outcome of a claimed key ($1 API key id, $2 key, $3 the outcome's JSON). */
const RECORD_OUTCOME: Statement = {
  name: 'orders_record_idempotent_outcome',
  text: 'UPDATE idempotency_keys SET outcome = $3 WHERE api_key_id = $1 AND key = $2',
};

type StoredOutcome = { kind: 'placed'; order: OrderJson } | Extract<OrderOutcome, { kind: 'refused' }>;

/** Idempotency records in PostgreSQL; claims and records in the use case's transaction. */
export class TypeOrmIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly db: EntityManager) {}

  async claim(
    ownerKeyId: number,
    key: string,
    requestHash: string,
    now: Date,
    tx: Transaction,
  ): Promise<IdempotencyRecord | null> {
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
    const claimed = await preparedRowsIn(tx, CLAIM_KEY, [toInt8(ownerKeyId), key, requestHash, now, expiredBefore]);
    if (claimed.length > 0) return null;
    const [row] = (await (
      await managerOf(tx, this.db)
    ).query('SELECT request_hash, outcome FROM idempotency_keys WHERE api_key_id = $1 AND key = $2', [
      toInt8(ownerKeyId),
      key,
    ])) as Array<{ request_hash: string; outcome: StoredOutcome | null }>;
    if (!row?.outcome) throw new Error('idempotency record without outcome after its request ended');
    return { requestHash: row.request_hash, outcome: fromStored(row.outcome) };
  }

  /** Sent with the COMMIT (nothing in the transaction reads it): no round trip of its own while the line is locked. */
  record(ownerKeyId: number, key: string, outcome: OrderOutcome, tx: Transaction): Promise<void> {
    runAtCommit(tx, RECORD_OUTCOME, [toInt8(ownerKeyId), key, JSON.stringify(toStored(outcome))]);
    return Promise.resolve();
  }

  async deleteExpired(now: Date): Promise<number> {
    const [, count] = (await this.db.query('DELETE FROM idempotency_keys WHERE created_at < $1', [
      new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS),
    ])) as [unknown[], number];
    return count;
  }
}

function toStored(outcome: OrderOutcome): StoredOutcome {
  return outcome.kind === 'placed' ? { kind: 'placed', order: OrderMapper.toJson(outcome.order) } : outcome;
}

function fromStored(stored: StoredOutcome): OrderOutcome {
  return stored.kind === 'placed' ? { kind: 'placed', order: OrderMapper.fromJson(stored.order) } : stored;
}
