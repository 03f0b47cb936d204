import {
  IDEMPOTENCY_RETENTION_MS,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type OrderOutcome,
} from '../../src/orders/domain/idempotency.js';
import { idempotencyKey, InMemoryTables } from './in-memory-tables.js';

/**
 * A faithful in-memory `IdempotencyRepository`: `claim` takes a free or expired
 * key (null) or returns the record an earlier request left; records expire after
 * the retention period. Concurrent claims need no waiting here because the
 * in-memory unit of work runs one transaction at a time.
 */
export class InMemoryIdempotencyRepository implements IdempotencyRepository {
  constructor(readonly tables: InMemoryTables = new InMemoryTables()) {}

  async claim(ownerKeyId: number, key: string, requestHash: string, now: Date): Promise<IdempotencyRecord | null> {
    const id = idempotencyKey(ownerKeyId, key);
    const existing = this.tables.idempotency.get(id);
    if (!existing || existing.createdAt.getTime() < now.getTime() - IDEMPOTENCY_RETENTION_MS) {
      this.tables.idempotency.set(id, Object.freeze({ requestHash, outcome: null, createdAt: now }));
      return null;
    }
    if (!existing.outcome) throw new Error('idempotency record without outcome after its request ended');
    return { requestHash: existing.requestHash, outcome: structuredClone(existing.outcome) };
  }

  async record(ownerKeyId: number, key: string, outcome: OrderOutcome): Promise<void> {
    const id = idempotencyKey(ownerKeyId, key);
    const existing = this.tables.idempotency.get(id);
    if (existing) this.tables.idempotency.set(id, Object.freeze({ ...existing, outcome: structuredClone(outcome) }));
  }

  async deleteExpired(now: Date): Promise<number> {
    let count = 0;
    for (const [id, row] of this.tables.idempotency) {
      if (row.createdAt.getTime() < now.getTime() - IDEMPOTENCY_RETENTION_MS) {
        this.tables.idempotency.delete(id);
        count++;
      }
    }
    return count;
  }
}
