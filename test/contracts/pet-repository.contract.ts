import type { CategoryRepository } from '../../src/categories/domain/category.repository.js';
import type { InventoryRepository } from '../../src/inventory/domain/inventory.repository.js';
import type { OrderRepository } from '../../src/orders/domain/order.repository.js';
import { PetCategoryNotFoundError, PetHasOrdersError } from '../../src/pets/domain/pet.errors.js';
import type { PetRepository } from '../../src/pets/domain/pet.repository.js';
import type { UnitOfWork } from '../../src/shared/unit-of-work/unit-of-work.js';

/** What the contract runs against: one implementation of each port, over one store that starts empty. */
export interface StoreUnderTest {
  readonly pets: PetRepository;
  readonly categories: CategoryRepository;
  readonly inventory: InventoryRepository;
  readonly orders: OrderRepository;
  readonly uow: UnitOfWork;
  /** An API key id that orders may name as their owner. */
  readonly ownerKeyId: number;
}

/**
 * The behaviour every `PetRepository` (with the stock and order ports beside it)
 * promises, run alike against the in-memory fake and the TypeORM adapter, so the
 * fake the unit tests trust cannot drift from the adapter the service runs.
 */
export function describePetRepositoryContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`PetRepository contract: ${name}`, () => {
    let store: StoreUnderTest;
    let categoryId: number;
    const firstPage = (limit = 20) => ({ limit, afterId: null });

    beforeEach(async () => {
      store = await open();
      categoryId = (await store.uow.run((tx) => store.categories.create({ name: `Contract ${Math.random()}` }, tx))).id;
    });

    const create = (name: string, status: 'available' | 'pending' | 'sold' = 'available', category = categoryId) =>
      store.uow.run(async (tx) => {
        const pet = await store.pets.create({ name, categoryId: category, status }, tx);
        await store.inventory.createLine(pet.id, tx);
        return pet;
      });

    it('creates with a fresh positive id and finds it; a missing id is null', async () => {
      const a = await create('A');
      const b = await create('B', 'sold');
      expect(a).toEqual({ id: expect.any(Number), name: 'A', categoryId, status: 'available' });
      expect(b.id).toBeGreaterThan(a.id);
      expect(await store.pets.findById(b.id)).toEqual(b);
      expect(await store.pets.findById(b.id + 1000)).toBeNull();
    });

    it('refuses a missing category with PetCategoryNotFoundError', async () => {
      await expect(create('Lost', 'available', categoryId + 1000)).rejects.toBeInstanceOf(PetCategoryNotFoundError);
    });

    it('pages by id ascending, after a cursor, with every present filter applied', async () => {
      const pets = [await create('P1'), await create('P2', 'sold'), await create('P3'), await create('P4', 'pending')];
      const ids = pets.map((pet) => pet.id);
      const page = await store.pets.findPage({ categoryId }, firstPage(2));
      expect(page.items.map((pet) => pet.id)).toEqual(ids.slice(0, 2));
      expect(page.hasMore).toBe(true);
      const next = await store.pets.findPage({ categoryId }, { limit: 2, afterId: ids[1] });
      expect(next.items.map((pet) => pet.id)).toEqual(ids.slice(2));
      expect(next.hasMore).toBe(false);
      const available = await store.pets.findPage({ categoryId, statuses: ['available'] }, firstPage());
      expect(available.items.map((pet) => pet.id)).toEqual([ids[0], ids[2]]);
      const picked = await store.pets.findPage({ ids: [ids[3], ids[1], 999_999] }, firstPage());
      expect(picked.items.map((pet) => pet.id)).toEqual([ids[1], ids[3]]);
      const both = await store.pets.findPage({ ids: [ids[0], ids[1]], statuses: ['sold'], categoryId }, firstPage());
      expect(both.items.map((pet) => pet.id)).toEqual([ids[1]]);
      expect((await store.pets.findPage({ categoryId: categoryId + 1000 }, firstPage())).items).toEqual([]);
    });

    it('answers reads asked at the same moment each with its own pets', async () => {
      const pets = [await create('C1'), await create('C2', 'sold'), await create('C3'), await create('C4', 'pending')];
      const ids = pets.map((pet) => pet.id);
      const missing = ids[3] + 1000;
      const [byId, pages] = await Promise.all([
        Promise.all([ids[2], missing, ids[0], ids[2], ids[3]].map((id) => store.pets.findById(id))),
        Promise.all([
          store.pets.findPage({ ids: [ids[3], ids[1]] }, firstPage()),
          store.pets.findPage({ ids: [ids[1], ids[1], missing] }, firstPage()),
          store.pets.findPage({ ids: [ids[3], ids[0], ids[2]] }, firstPage(2)),
          store.pets.findPage({ ids: [ids[3], ids[0], ids[2]] }, { limit: 1, afterId: ids[0] }),
          store.pets.findPage({ ids: [ids[0], ids[1]], statuses: ['sold'] }, firstPage()),
          store.pets.findPage({ ids: [missing] }, firstPage()),
          store.pets.findPage({ categoryId }, firstPage(3)),
          store.pets.findPage({ categoryId }, firstPage(3)),
        ]),
      ]);
      expect(byId).toEqual([pets[2], null, pets[0], pets[2], pets[3]]);
      const answers = pages.map((page) => ({ ids: page.items.map((pet) => pet.id), hasMore: page.hasMore }));
      expect(answers).toEqual([
        { ids: [ids[1], ids[3]], hasMore: false },
        { ids: [ids[1]], hasMore: false },
        { ids: [ids[0], ids[2]], hasMore: true },
        { ids: [ids[2]], hasMore: true },
        { ids: [ids[1]], hasMore: false },
        { ids: [], hasMore: false },
        { ids: ids.slice(0, 3), hasMore: true },
        { ids: ids.slice(0, 3), hasMore: true },
      ]);
      expect(pages[0].items).toEqual([pets[1], pets[3]]);
    });

    it('answers pages asked at the same moment as it answers each asked alone', async () => {
      const ids: number[] = [];
      for (const status of ['available', 'sold', 'pending', 'available', 'sold'] as const) {
        ids.push((await create(`M ${ids.length}`, status)).id);
      }
      // A later category with pets of its own: a page of the first must stop at the first's last pet.
      const other = (
        await store.uow.run((tx) => store.categories.create({ name: `Contract other ${Math.random()}` }, tx))
      ).id;
      const others = [(await create('O 1', 'available', other)).id, (await create('O 2', 'sold', other)).id];
      const reads = [
        () => store.pets.findPage({}, firstPage(3)),
        () => store.pets.findPage({}, { limit: 2, afterId: ids[1] }),
        () => store.pets.findPage({}, { limit: 2, afterId: ids[1] }),
        () => store.pets.findPage({}, { limit: 1, afterId: ids[4] }),
        () => store.pets.findPage({ categoryId }, { limit: 2, afterId: ids[0] }),
        () => store.pets.findPage({ categoryId }, { limit: 10, afterId: null }),
        () => store.pets.findPage({ categoryId: other }, firstPage()),
        () => store.pets.findPage({ categoryId: other }, { limit: 5, afterId: ids[0] }),
        () => store.pets.findPage({ categoryId: categoryId + 1000 }, firstPage()),
        () => store.pets.findPage({ categoryId, statuses: ['sold'] }, firstPage()),
        () => store.pets.findPage({ statuses: ['available', 'pending'] }, { limit: 2, afterId: ids[0] }),
      ];
      const alone: Array<Awaited<ReturnType<(typeof reads)[number]>>> = [];
      for (const read of reads) alone.push(await read());
      expect(await Promise.all(reads.map((read) => read()))).toEqual(alone);
      expect(alone[4]).toEqual({
        items: [expect.objectContaining({ id: ids[1] }), expect.objectContaining({ id: ids[2] })],
        hasMore: true,
      });
      expect(alone[5]).toEqual({ items: ids.map((id) => expect.objectContaining({ id })), hasMore: false });
      expect(alone[6].items.map((pet) => pet.id)).toEqual(others);
      expect(alone[7].items.map((pet) => pet.id)).toEqual(others);
    });

    it('reads what was committed before the read was asked, also when the same read was asked just before', async () => {
      const pet = await create('Before');
      const earlier = store.pets.findById(pet.id);
      const earlierPage = store.pets.findPage({ ids: [pet.id] }, firstPage());
      await store.uow.run((tx) => store.pets.update({ ...pet, name: 'After' }, tx));
      const [later, laterPage] = await Promise.all([
        store.pets.findById(pet.id),
        store.pets.findPage({ ids: [pet.id] }, firstPage()),
      ]);
      // The earlier reads ran alongside the change and may see either name; the later ones only the new.
      expect(['Before', 'After']).toContain((await earlier)?.name);
      expect(['Before', 'After']).toContain((await earlierPage).items[0]?.name);
      expect([later?.name, laterPage.items[0]?.name]).toEqual(['After', 'After']);
    });

    it('updates in a transaction (null for a missing pet) and deletes (false for a missing pet)', async () => {
      const pet = await create('Old');
      const renamed = await store.uow.run((tx) => store.pets.update({ ...pet, name: 'New', status: 'sold' }, tx));
      expect(renamed).toEqual({ ...pet, name: 'New', status: 'sold' });
      expect(await store.pets.findById(pet.id)).toEqual(renamed);
      expect(await store.uow.run((tx) => store.pets.update({ ...pet, id: pet.id + 1000 }, tx))).toBeNull();
      expect(await store.uow.run((tx) => store.pets.delete(pet.id, tx))).toBe(true);
      expect(await store.pets.findById(pet.id)).toBeNull();
      expect(await store.inventory.findItem(pet.id)).toBeNull(); // its inventory line went with it
      expect(await store.uow.run((tx) => store.pets.delete(pet.id, tx))).toBe(false);
    });

    it('refuses to delete a pet that an order references', async () => {
      const pet = await create('Ordered');
      await store.uow.run((tx) => store.orders.create({ petId: pet.id, quantity: 1 }, store.ownerKeyId, tx));
      await expect(store.uow.run((tx) => store.pets.delete(pet.id, tx))).rejects.toBeInstanceOf(PetHasOrdersError);
      expect(await store.pets.findById(pet.id)).toEqual(pet);
    });

    it('leaves nothing of a unit of work that failed', async () => {
      const failed = store.uow.run(async (tx) => {
        const pet = await store.pets.create({ name: 'Ghost', categoryId, status: 'available' }, tx);
        await store.inventory.createLine(pet.id, tx);
        throw new Error(`rolled back ${pet.id}`);
      });
      const id = Number(/rolled back (\d+)/.exec(String(await failed.catch((e: Error) => e.message)))?.[1]);
      expect(await store.pets.findById(id)).toBeNull();
      expect(await store.inventory.findItem(id)).toBeNull();
    });

    it('locks and saves an inventory line as one guarded change, status included', async () => {
      const pet = await create('Stocked');
      await store.uow.run(async (tx) => {
        const line = await store.inventory.lock(pet.id, tx);
        expect(line).toEqual({ petId: pet.id, quantity: 0, status: 'available', openOrders: 0 });
        if (line) await store.inventory.save(line, { ...line, quantity: 3, status: 'pending' }, tx);
      });
      expect(await store.inventory.findItem(pet.id)).toEqual({ petId: pet.id, quantity: 3, status: 'pending' });
      expect((await store.pets.findById(pet.id))?.status).toBe('pending');
      await expect(
        store.uow.run(async (tx) => {
          const line = await store.inventory.lock(pet.id, tx);
          if (line) await store.inventory.save({ ...line, quantity: 10 }, { ...line, quantity: 0 }, tx);
        }),
      ).rejects.toThrow(); // a delta that would take stock below zero is refused, whatever the caller believed
      expect(await store.inventory.findItem(pet.id)).toEqual({ petId: pet.id, quantity: 3, status: 'pending' });
      expect(await store.uow.run((tx) => store.inventory.lock(pet.id + 1000, tx))).toBeNull();
    });
  });
}
