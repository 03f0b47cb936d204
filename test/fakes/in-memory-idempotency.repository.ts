import { IDEMPOTENCY_RETENTION_MS, type IdempotencyRepository } from '../../src/orders/domain/idempotency.js';
import { InMemoryTables } from './in-memory-tables.js';

/**
 * A faithful in-memory `IdempotencyRepository`: records expire after the retention
 * period (claimed and written by `InMemoryOrderRepository.placeFromStock`).
 */
export class InMemoryIdempotencyRepository implements IdempotencyRepository {
  constructor(readonly tables: InMemoryTables = new InMemoryTables()) {}

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
