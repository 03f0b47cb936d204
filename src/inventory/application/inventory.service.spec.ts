import { createInMemoryDatabase } from '../../../test/fakes/index.js';
import { InventoryService } from './inventory.service.js';

describe('InventoryService', () => {
  it('restocks a pet in one unit of work', async () => {
    const store = createInMemoryDatabase();
    const categoryId = (await store.categories.create({ name: 'Dogs' })).id;
    store.pets.insert({ id: 5, name: 'Rex', categoryId, status: 'available' });
    store.inventory.setQuantity(5, 0);
    const service = new InventoryService(store.inventory, store.uow);
    expect(await service.setQuantity(5, 3)).toEqual({ petId: 5, quantity: 3, status: 'available' });
    expect(store.uow.commits).toBe(1);
  });
});
