import { CategoryRepository } from '../src/categories/domain/category.repository.js';
import { InventoryRepository } from '../src/inventory/domain/inventory.repository.js';
import { OrderRepository } from '../src/orders/domain/order.repository.js';
import { PetRepository } from '../src/pets/domain/pet.repository.js';
import { UnitOfWork } from '../src/shared/unit-of-work/unit-of-work.js';
import { describePetRepositoryContract } from './contracts/pet-repository.contract.js';
import { createInMemoryDatabase } from './fakes/index.js';
import { issueStoreKey } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The same contract, run against the in-memory fakes and the TypeORM adapters on the real database. */
describePetRepositoryContract('in-memory fakes', async () => {
  const db = createInMemoryDatabase();
  return { ...db, ownerKeyId: 1 };
});

describe('on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describePetRepositoryContract('TypeORM adapters', async () => {
    await t.reset();
    return {
      pets: t.app.get(PetRepository),
      categories: t.app.get(CategoryRepository),
      inventory: t.app.get(InventoryRepository),
      orders: t.app.get(OrderRepository),
      uow: t.app.get(UnitOfWork),
      ownerKeyId: (await issueStoreKey(t, ['read', 'write'])).id,
    };
  });
});
