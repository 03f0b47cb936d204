import { STATUS_BY_KIND } from '@petstore/errors';
import {
  createInMemoryDatabase,
  type InMemoryCategoryRepository,
  type InMemoryPetRepository,
  type InMemoryUnitOfWork,
} from '../../../test/fakes/index.js';
import { CategoryInUseError, CategoryNameTakenError, CategoryNotFoundError } from '../domain/category.errors.js';
import { CategoriesService } from './categories.service.js';

describe('CategoriesService', () => {
  let categories: InMemoryCategoryRepository;
  let pets: InMemoryPetRepository;
  let uow: InMemoryUnitOfWork;
  let service: CategoriesService;
  const now = new Date('2026-11-21T10:00:00Z');

  beforeEach(() => {
    ({ categories, pets, uow } = createInMemoryDatabase());
    service = new CategoriesService(categories, uow, { now: () => now });
  });

  describe('create', () => {
    it('assigns an id and keeps name and description', async () => {
      const dogs = await service.create({ name: 'Dogs', description: 'Loyal companions' });
      expect(dogs).toEqual({ id: expect.any(Number), name: 'Dogs', description: 'Loyal companions' });
      expect(await service.get(dogs.id)).toEqual(dogs);
    });

    it('leaves an omitted description absent', async () => {
      const cats = await service.create({ name: 'Cats' });
      expect(cats).toStrictEqual({ id: cats.id, name: 'Cats' });
    });

    it.each(['Dogs', 'dogs', 'DOGS', 'dOgS'])(
      'refuses %j when "Dogs" exists: 409 CATEGORY_NAME_TAKEN',
      async (name) => {
        await service.create({ name: 'Dogs' });
        const error = await service.create({ name }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CategoryNameTakenError);
        expect(error).toMatchObject({ code: 'CATEGORY_NAME_TAKEN', kind: 'conflict' });
        expect(STATUS_BY_KIND.conflict).toBe(409);
        expect(categories.all()).toHaveLength(1);
      },
    );

    it('accepts names that differ by more than case', async () => {
      await service.create({ name: 'Dogs' });
      await expect(service.create({ name: 'Dogs ' })).resolves.toMatchObject({ name: 'Dogs ' });
    });
  });

  describe('get', () => {
    it('throws CategoryNotFoundError (404 CATEGORY_NOT_FOUND) for an unknown id', async () => {
      const error = await service.get(9).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CategoryNotFoundError);
      expect(error).toMatchObject({
        code: 'CATEGORY_NOT_FOUND',
        kind: 'not_found',
        message: 'Category 9 does not exist',
      });
    });
  });

  describe('list', () => {
    it('pages by ascending id with an exclusive afterId', async () => {
      for (const name of ['A', 'B', 'C', 'D', 'E']) await service.create({ name });
      const first = await service.list({ limit: 2, afterId: null });
      expect(first.items.map((c) => c.name)).toEqual(['A', 'B']);
      expect(first.hasMore).toBe(true);
      const second = await service.list({ limit: 2, afterId: first.items[1].id });
      expect(second.items.map((c) => c.name)).toEqual(['C', 'D']);
      expect(second.hasMore).toBe(true);
      const third = await service.list({ limit: 2, afterId: second.items[1].id });
      expect(third.items.map((c) => c.name)).toEqual(['E']);
      expect(third.hasMore).toBe(false);
    });

    it('is empty with no categories', async () => {
      expect(await service.list({ limit: 20, afterId: null })).toEqual({ items: [], hasMore: false });
    });
  });

  describe('replace', () => {
    it('replaces every field: an omitted description is removed', async () => {
      const dogs = await service.create({ name: 'Dogs', description: 'Loyal' });
      const replaced = await service.replace(dogs.id, { name: 'Hounds' });
      expect(replaced).toStrictEqual({ id: dogs.id, name: 'Hounds' });
      expect(await service.get(dogs.id)).toStrictEqual(replaced);
    });

    it('may change the case of its own name', async () => {
      const dogs = await service.create({ name: 'Dogs' });
      await expect(service.replace(dogs.id, { name: 'DOGS' })).resolves.toMatchObject({ name: 'DOGS' });
    });

    it("refuses another category's name, whatever the case, and keeps the original", async () => {
      await service.create({ name: 'Dogs' });
      const cats = await service.create({ name: 'Cats' });
      await expect(service.replace(cats.id, { name: 'dogs' })).rejects.toBeInstanceOf(CategoryNameTakenError);
      expect(await service.get(cats.id)).toEqual(cats);
    });

    it('throws CategoryNotFoundError for an unknown id', async () => {
      await expect(service.replace(9, { name: 'Dogs' })).rejects.toBeInstanceOf(CategoryNotFoundError);
    });
  });

  describe('remove', () => {
    it('deletes an unused category, after which it is not found', async () => {
      const dogs = await service.create({ name: 'Dogs' });
      await service.remove(dogs.id);
      await expect(service.get(dogs.id)).rejects.toBeInstanceOf(CategoryNotFoundError);
      await expect(service.remove(dogs.id)).rejects.toBeInstanceOf(CategoryNotFoundError);
    });

    it('frees the name of a deleted category', async () => {
      const dogs = await service.create({ name: 'Dogs' });
      await service.remove(dogs.id);
      await expect(service.create({ name: 'dogs' })).resolves.toMatchObject({ name: 'dogs' });
    });

    it('refuses while pets belong to it: 409 CATEGORY_IN_USE', async () => {
      const dogs = await service.create({ name: 'Dogs' });
      const rex = await pets.create({ name: 'Rex', categoryId: dogs.id, status: 'available' });
      const error = await service.remove(dogs.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CategoryInUseError);
      expect(error).toMatchObject({ code: 'CATEGORY_IN_USE', kind: 'conflict' });
      expect(await service.get(dogs.id)).toEqual(dogs);

      await pets.delete(rex.id);
      await expect(service.remove(dogs.id)).resolves.toBeUndefined();
    });

    it('only counts pets of that category', async () => {
      const dogs = await service.create({ name: 'Dogs' });
      const cats = await service.create({ name: 'Cats' });
      await pets.create({ name: 'Tom', categoryId: cats.id, status: 'available' });
      await expect(service.remove(dogs.id)).resolves.toBeUndefined();
    });

    it('throws CategoryNotFoundError for an unknown id', async () => {
      await expect(service.remove(9)).rejects.toThrow('Category 9 does not exist');
    });
  });

  describe('events', () => {
    const actor = 7;
    const recorded = () => uow.committedEvents;

    it('records CategoryCreated with the category as saved and the acting key', async () => {
      const dogs = await service.create({ name: 'Dogs', description: 'Loyal' }, actor);
      expect(recorded()).toEqual([{ type: 'CategoryCreated', category: dogs, actorKeyId: actor, occurredAt: now }]);
    });

    it('records CategoryUpdated with the category as saved, only when the replace changes it', async () => {
      const dogs = await service.create({ name: 'Dogs', description: 'Loyal' });
      const hounds = await service.replace(dogs.id, { name: 'Hounds' }, actor);
      await service.replace(dogs.id, { name: 'Hounds' }, actor); // the same fields: no change, no event
      expect(recorded().slice(1)).toEqual([
        { type: 'CategoryUpdated', category: hounds, actorKeyId: actor, occurredAt: now },
      ]);
      expect(hounds).toStrictEqual({ id: dogs.id, name: 'Hounds' });
    });

    it('records CategoryDeleted with the category as it was before the delete', async () => {
      const dogs = await service.create({ name: 'Dogs', description: 'Loyal' });
      await service.remove(dogs.id, actor);
      expect(recorded().slice(1)).toEqual([
        { type: 'CategoryDeleted', category: dogs, actorKeyId: actor, occurredAt: now },
      ]);
    });

    it('records nothing for a refused change (name taken, not found, in use), which rolls back', async () => {
      const dogs = await service.create({ name: 'Dogs' });
      const cats = await service.create({ name: 'Cats' });
      await pets.create({ name: 'Rex', categoryId: dogs.id, status: 'available' });
      const before = recorded().length;
      const rollbacks = uow.rollbacks;
      await expect(service.create({ name: 'DOGS' }, actor)).rejects.toBeInstanceOf(CategoryNameTakenError);
      await expect(service.replace(cats.id, { name: 'dogs' }, actor)).rejects.toBeInstanceOf(CategoryNameTakenError);
      await expect(service.replace(99, { name: 'Birds' }, actor)).rejects.toBeInstanceOf(CategoryNotFoundError);
      await expect(service.remove(dogs.id, actor)).rejects.toBeInstanceOf(CategoryInUseError);
      await expect(service.remove(99, actor)).rejects.toBeInstanceOf(CategoryNotFoundError);
      expect(recorded()).toHaveLength(before);
      expect(uow.rollbacks - rollbacks).toBe(5);
      expect(categories.all()).toEqual([dogs, cats]);
    });
  });
});
