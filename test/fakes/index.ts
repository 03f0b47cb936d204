import { InMemoryCategoryRepository } from './in-memory-category.repository.js';
import { InMemoryIdempotencyRepository } from './in-memory-idempotency.repository.js';
import { InMemoryOrderRepository } from './in-memory-order.repository.js';
import { InMemoryPetRepository } from './in-memory-pet.repository.js';
import { InMemoryInventoryRepository } from './in-memory-inventory.repository.js';
import { InMemoryTables } from './in-memory-tables.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';

export {
  InMemoryApiKeyStore,
  type ApiKeyStoreMethod,
  type InMemoryApiKeyStoreOptions,
} from './in-memory-api-key.store.js';
export { InMemoryAccountRepository } from './in-memory-account.repository.js';
export { InMemoryAuditLogRepository, inMemoryAuditTrail } from './in-memory-audit-log.repository.js';
export { InMemoryCategoryRepository } from './in-memory-category.repository.js';
export { InMemoryKeyUsageRepository } from './in-memory-key-usage.repository.js';
export { InMemoryIdempotencyRepository } from './in-memory-idempotency.repository.js';
export { InMemoryOrderRepository } from './in-memory-order.repository.js';
export { InMemoryPetRepository } from './in-memory-pet.repository.js';
export { InMemoryInventoryRepository } from './in-memory-inventory.repository.js';
export { ConstraintViolation, InMemoryTables } from './in-memory-tables.js';
export { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';

/**
 * Every repository of the catalogue and the store over one set of in-memory tables
 * (so foreign keys, cascades and the pet status seen by inventory lines hold across
 * them), plus the unit of work that spans them.
 */
export interface InMemoryDatabase {
  readonly tables: InMemoryTables;
  readonly categories: InMemoryCategoryRepository;
  readonly pets: InMemoryPetRepository;
  readonly inventory: InMemoryInventoryRepository;
  readonly orders: InMemoryOrderRepository;
  readonly idempotency: InMemoryIdempotencyRepository;
  readonly uow: InMemoryUnitOfWork;
}

export function createInMemoryDatabase(): InMemoryDatabase {
  const tables = new InMemoryTables();
  const repositories = {
    pets: new InMemoryPetRepository(tables),
    inventory: new InMemoryInventoryRepository(tables),
    orders: new InMemoryOrderRepository(tables),
    idempotency: new InMemoryIdempotencyRepository(tables),
  };
  return {
    tables,
    categories: new InMemoryCategoryRepository(tables),
    ...repositories,
    uow: new InMemoryUnitOfWork(tables),
  };
}
