import { DomainError, STATUS_BY_KIND } from '@petstore/errors';
import { createInMemoryDatabase, type InMemoryDatabase } from '../../../test/fakes/index.js';
import { PetCategoryNotFoundError, PetHasOrdersError, PetNotFoundError } from '../domain/pet.errors.js';
import { PetsService } from './pets.service.js';

describe('PetsService', () => {
  let store: InMemoryDatabase;
  let service: PetsService;
  let dogs: number;
  let cats: number;

  beforeEach(async () => {
    store = createInMemoryDatabase();
    service = new PetsService(store.pets, store.categories, store.inventory, store.uow);
    dogs = (await store.categories.create({ name: 'Dogs' })).id;
    cats = (await store.categories.create({ name: 'Cats' })).id;
  });

  const missingCategory = 999;

  async function expectCategoryNotFound(promise: Promise<unknown>, categoryId = missingCategory): Promise<void> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PetCategoryNotFoundError);
    const domain = error as DomainError;
    expect(domain.code).toBe('CATEGORY_NOT_FOUND');
    expect(domain.kind).toBe('unprocessable');
    expect(STATUS_BY_KIND[domain.kind]).toBe(422);
    expect(domain.message).toContain(String(categoryId));
  }

  describe('create', () => {
    it('assigns an id and defaults the status to available', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      expect(rex).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: dogs, status: 'available' });
      expect(rex.id).toBeGreaterThan(0);
      expect(await service.get(rex.id)).toEqual(rex);
    });

    it('keeps a given status', async () => {
      expect((await service.create({ name: 'Tom', categoryId: cats, status: 'pending' })).status).toBe('pending');
    });

    it('gives each pet its own id', async () => {
      const a = await service.create({ name: 'A', categoryId: dogs });
      const b = await service.create({ name: 'A', categoryId: dogs });
      expect(a.id).not.toBe(b.id);
    });

    it('refuses a missing category with 422 CATEGORY_NOT_FOUND and stores nothing', async () => {
      await expectCategoryNotFound(service.create({ name: 'Rex', categoryId: missingCategory }));
      expect(store.pets.all()).toEqual([]);
      expect(store.tables.inventory.size).toBe(0);
    });

    it("creates the pet's inventory entry with quantity 0 and the pet's status", async () => {
      const tom = await service.create({ name: 'Tom', categoryId: cats, status: 'pending' });
      expect(await store.inventory.findItem(tom.id)).toEqual({ petId: tom.id, quantity: 0, status: 'pending' });
    });

    it('creates the pet and its inventory entry together or not at all', async () => {
      store.tables.inventory.set(1, 5); // a stray entry for the id the next pet gets: its insert fails
      await expect(service.create({ name: 'Rex', categoryId: dogs })).rejects.toThrow('PK_inventory');
      expect(store.pets.all()).toEqual([]);
      expect(store.uow.rollbacks).toBe(1);
    });
  });

  describe('get', () => {
    it('throws PetNotFoundError (404 PET_NOT_FOUND) for an unknown id', async () => {
      const error = await service.get(42).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PetNotFoundError);
      expect(error).toMatchObject({ code: 'PET_NOT_FOUND', kind: 'not_found', message: 'Pet 42 does not exist' });
    });
  });

  describe('list', () => {
    beforeEach(async () => {
      await service.create({ name: 'Rex', categoryId: dogs }); // 1
      await service.create({ name: 'Tom', categoryId: cats, status: 'sold' }); // 2
      await service.create({ name: 'Fido', categoryId: dogs, status: 'pending' }); // 3
      await service.create({ name: 'Kitty', categoryId: cats }); // 4
      await service.create({ name: 'Spot', categoryId: dogs, status: 'sold' }); // 5
    });

    const names = (items: readonly { name: string }[]) => items.map((p) => p.name);

    it('returns pets by ascending id', async () => {
      const page = await service.list({}, { limit: 20, afterId: null });
      expect(names(page.items)).toEqual(['Rex', 'Tom', 'Fido', 'Kitty', 'Spot']);
      expect(page.hasMore).toBe(false);
    });

    it('pages with a limit and an exclusive afterId', async () => {
      const first = await service.list({}, { limit: 2, afterId: null });
      expect(names(first.items)).toEqual(['Rex', 'Tom']);
      expect(first.hasMore).toBe(true);
      const second = await service.list({}, { limit: 2, afterId: first.items[1].id });
      expect(names(second.items)).toEqual(['Fido', 'Kitty']);
      expect(second.hasMore).toBe(true);
      const last = await service.list({}, { limit: 2, afterId: second.items[1].id });
      expect(names(last.items)).toEqual(['Spot']);
      expect(last.hasMore).toBe(false);
    });

    it('reports no more when the page ends exactly at the last pet', async () => {
      const page = await service.list({}, { limit: 5, afterId: null });
      expect(page.items).toHaveLength(5);
      expect(page.hasMore).toBe(false);
    });

    it('filters by any of several statuses', async () => {
      const page = await service.list({ statuses: ['sold', 'pending'] }, { limit: 20, afterId: null });
      expect(names(page.items)).toEqual(['Tom', 'Fido', 'Spot']);
    });

    it('filters by category', async () => {
      expect(names((await service.list({ categoryId: cats }, { limit: 20, afterId: null })).items)).toEqual([
        'Tom',
        'Kitty',
      ]);
    });

    it('filters by ids, ignoring unknown ones, in id order', async () => {
      const page = await service.list({ ids: [5, 1, 404] }, { limit: 20, afterId: null });
      expect(names(page.items)).toEqual(['Rex', 'Spot']);
    });

    it('combines filters: every present filter must match', async () => {
      const page = await service.list(
        { statuses: ['sold'], categoryId: dogs, ids: [1, 2, 5] },
        { limit: 20, afterId: null },
      );
      expect(names(page.items)).toEqual(['Spot']);
    });

    it('pages through a filtered list', async () => {
      const first = await service.list({ categoryId: dogs }, { limit: 1, afterId: null });
      expect(names(first.items)).toEqual(['Rex']);
      expect(first.hasMore).toBe(true);
      const second = await service.list({ categoryId: dogs }, { limit: 2, afterId: first.items[0].id });
      expect(names(second.items)).toEqual(['Fido', 'Spot']);
      expect(second.hasMore).toBe(false);
    });

    it('returns an empty page after the last id', async () => {
      expect(await service.list({}, { limit: 20, afterId: 5 })).toEqual({ items: [], hasMore: false });
    });
  });

  describe('replace', () => {
    it('replaces every field and returns an omitted status to available', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs, status: 'sold' });
      const replaced = await service.replace(rex.id, { name: 'Max', categoryId: cats });
      expect(replaced).toEqual({ id: rex.id, name: 'Max', categoryId: cats, status: 'available' });
      expect(await service.get(rex.id)).toEqual(replaced);
    });

    it('throws PetNotFoundError for an unknown pet', async () => {
      await expect(service.replace(42, { name: 'Max', categoryId: dogs })).rejects.toBeInstanceOf(PetNotFoundError);
    });

    it('answers 404 before 422 when both the pet and the category are missing', async () => {
      await expect(service.replace(42, { name: 'Max', categoryId: missingCategory })).rejects.toBeInstanceOf(
        PetNotFoundError,
      );
    });

    it('refuses a missing category with 422 and leaves the pet unchanged', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      await expectCategoryNotFound(service.replace(rex.id, { name: 'Max', categoryId: missingCategory }));
      expect(await service.get(rex.id)).toEqual(rex);
    });
  });

  describe('patch', () => {
    it('changes only the fields present', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs, status: 'pending' });
      expect(await service.patch(rex.id, { name: 'Max' })).toEqual({ ...rex, name: 'Max' });
      expect(await service.patch(rex.id, { status: 'sold' })).toEqual({ ...rex, name: 'Max', status: 'sold' });
      expect(await service.patch(rex.id, { categoryId: cats })).toEqual({
        id: rex.id,
        name: 'Max',
        categoryId: cats,
        status: 'sold',
      });
      expect(await service.get(rex.id)).toEqual({ id: rex.id, name: 'Max', categoryId: cats, status: 'sold' });
    });

    it('keeps the inventory status equal to the pet status', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      await service.patch(rex.id, { status: 'sold' });
      expect((await store.inventory.findItem(rex.id))?.status).toBe('sold');
      await service.replace(rex.id, { name: 'Rex', categoryId: dogs });
      expect((await store.inventory.findItem(rex.id))?.status).toBe('available');
    });

    it('with no fields keeps the pet as it is (status is not reset)', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs, status: 'sold' });
      expect(await service.patch(rex.id, {})).toEqual(rex);
    });

    it('throws PetNotFoundError for an unknown pet', async () => {
      await expect(service.patch(42, { name: 'Max' })).rejects.toBeInstanceOf(PetNotFoundError);
    });

    it('refuses a missing category with 422 and leaves the pet unchanged', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      await expectCategoryNotFound(service.patch(rex.id, { categoryId: missingCategory, name: 'Max' }));
      expect(await service.get(rex.id)).toEqual(rex);
    });
  });

  describe('remove', () => {
    it('deletes the pet, after which it is not found', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      await service.remove(rex.id);
      await expect(service.get(rex.id)).rejects.toBeInstanceOf(PetNotFoundError);
      await expect(service.remove(rex.id)).rejects.toBeInstanceOf(PetNotFoundError);
    });

    it('throws PetNotFoundError for an unknown pet', async () => {
      await expect(service.remove(42)).rejects.toThrow('Pet 42 does not exist');
    });

    it('removes the inventory entry with the pet', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      await service.remove(rex.id);
      expect(await store.inventory.findItem(rex.id)).toBeNull();
    });

    it('refuses while an order references the pet: 409 PET_HAS_ORDERS', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      const order = await store.orders.create({ petId: rex.id, quantity: 1 }, 1);
      await store.orders.completeIfOpen(order.id, new Date()); // complete orders count too
      const error = await service.remove(rex.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PetHasOrdersError);
      expect(error).toMatchObject({ code: 'PET_HAS_ORDERS', kind: 'conflict' });
      expect(await service.get(rex.id)).toEqual(rex);
      expect(await store.inventory.findItem(rex.id)).not.toBeNull();
    });

    it('never reuses the id of a deleted pet', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      await service.remove(rex.id);
      expect((await service.create({ name: 'Max', categoryId: dogs })).id).toBeGreaterThan(rex.id);
    });
  });

  describe('when the category disappears between the check and the write', () => {
    it('still answers 422 CATEGORY_NOT_FOUND (the repository enforces the reference)', async () => {
      const { categories } = store;
      const birds = (await categories.create({ name: 'Birds' })).id;
      const original = categories.exists.bind(categories);
      // The category passes the service's check, then is deleted before the pet is written.
      categories.exists = async (id) => {
        const found = await original(id);
        await categories.delete(id);
        return found;
      };
      await expectCategoryNotFound(service.create({ name: 'Tweety', categoryId: birds }), birds);
      expect(store.pets.all()).toEqual([]);
      expect(store.tables.inventory.size).toBe(0);
    });
  });

  describe('events', () => {
    const actor = 7;
    const now = new Date('2026-11-21T10:00:00Z');
    // Only the events of `clocked`: set-up through `service` stamps them with the system clock.
    const recorded = () => store.uow.committedEvents.filter((e) => e.occurredAt === now);
    let clocked: PetsService;

    beforeEach(() => {
      clocked = new PetsService(store.pets, store.categories, store.inventory, store.uow, { now: () => now });
    });

    it('records PetCreated with the pet as saved and the acting key', async () => {
      const rex = await clocked.create({ name: 'Rex', categoryId: dogs }, actor);
      expect(recorded()).toEqual([{ type: 'PetCreated', pet: rex, actorKeyId: actor, occurredAt: now }]);
    });

    it('records PetUpdated with the pet as saved on PUT and PATCH, and PetStatusChanged too when the status changed', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      const max = await clocked.patch(rex.id, { name: 'Max' }, actor);
      const sold = await clocked.replace(rex.id, { name: 'Max', categoryId: cats, status: 'sold' }, actor);
      expect(recorded()).toEqual([
        { type: 'PetUpdated', pet: max, actorKeyId: actor, occurredAt: now },
        { type: 'PetUpdated', pet: sold, actorKeyId: actor, occurredAt: now },
        {
          type: 'PetStatusChanged',
          petId: rex.id,
          oldStatus: 'available',
          newStatus: 'sold',
          actorKeyId: actor,
          occurredAt: now,
        },
      ]);
    });

    it('records nothing for an edit that changes no field', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs, status: 'pending' });
      await clocked.patch(rex.id, {}, actor);
      await clocked.patch(rex.id, { name: 'Rex' }, actor);
      await clocked.replace(rex.id, { name: 'Rex', categoryId: dogs, status: 'pending' }, actor);
      expect(recorded()).toEqual([]);
    });

    it('records PetDeleted with the pet as it was before the delete', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs, status: 'sold' });
      await clocked.remove(rex.id, actor);
      expect(recorded()).toEqual([{ type: 'PetDeleted', pet: rex, actorKeyId: actor, occurredAt: now }]);
    });

    it('records nothing for a refused change (missing pet or category, orders on the pet), which rolls back', async () => {
      const rex = await service.create({ name: 'Rex', categoryId: dogs });
      await store.orders.create({ petId: rex.id, quantity: 1 }, 1);
      const rollbacks = store.uow.rollbacks;
      await expectCategoryNotFound(clocked.create({ name: 'Max', categoryId: missingCategory }, actor));
      await expectCategoryNotFound(clocked.patch(rex.id, { name: 'Max', categoryId: missingCategory }, actor));
      await expect(clocked.replace(42, { name: 'Max', categoryId: dogs }, actor)).rejects.toBeInstanceOf(
        PetNotFoundError,
      );
      await expect(clocked.remove(rex.id, actor)).rejects.toBeInstanceOf(PetHasOrdersError);
      await expect(clocked.remove(42, actor)).rejects.toBeInstanceOf(PetNotFoundError);
      expect(recorded()).toEqual([]);
      expect(store.uow.rollbacks - rollbacks).toBe(4); // the create is refused before its transaction
      expect(store.pets.all()).toEqual([rex]);
    });
  });
});
