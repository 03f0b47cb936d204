import type { Pet } from '../../src/pets/domain/pet.js';
import { PetCategoryNotFoundError, PetHasOrdersError } from '../../src/pets/domain/pet.errors.js';
import type { PetFilter, PetRepository } from '../../src/pets/domain/pet.repository.js';
import { type Page, type PageRequest, toPage } from '../../src/shared/paging/page.js';
import { InMemoryTables, keysetRows, uniqueViolation } from './in-memory-tables.js';

/**
 * A faithful in-memory `PetRepository` over the shared tables: ids from a sequence
 * that never reuses a value; `findPage` returns ids ascending, strictly after
 * `afterId`, with every present filter applied (an empty list filters nothing, as
 * in the adapter), reading `limit + 1` rows and trimming them with `toPage`; writes
 * naming a missing category throw `PetCategoryNotFoundError`; `delete` removes the
 * inventory entry with the pet and refuses (`PetHasOrdersError`) while orders reference it.
 */
export class InMemoryPetRepository implements PetRepository {
  constructor(readonly tables: InMemoryTables = new InMemoryTables()) {}

  /** Every stored pet, ascending by id (for assertions). */
  all(): Pet[] {
    return [...this.tables.pets.values()].sort((a, b) => a.id - b.id);
  }

  /**
   * Test set-up: stores `pet` under its own id, as a fixture would (the sequence is
   * not advanced, as in PostgreSQL for an explicit id). Its category must exist.
   */
  insert(pet: Pet): Pet {
    if (this.tables.pets.has(pet.id)) throw uniqueViolation('PK_pets', `pet ${pet.id} already exists`);
    this.assertCategory(pet.categoryId);
    const inserted = row(pet.id, pet);
    this.tables.pets.set(pet.id, inserted);
    return inserted;
  }

  async findById(id: number): Promise<Pet | null> {
    return this.tables.pets.get(id) ?? null;
  }

  async findPage(filter: PetFilter, { limit, afterId }: PageRequest): Promise<Page<Pet>> {
    const statuses = filter.statuses?.length ? new Set(filter.statuses) : null;
    const ids = filter.ids?.length ? new Set(filter.ids) : null;
    const matching = [...this.tables.pets.values()].filter(
      (pet) =>
        (statuses === null || statuses.has(pet.status)) &&
        (filter.categoryId === undefined || pet.categoryId === filter.categoryId) &&
        (ids === null || ids.has(pet.id)),
    );
    return toPage(
      keysetRows(matching, (p) => p.id, afterId, limit),
      limit,
    );
  }

  async create(pet: Omit<Pet, 'id'>): Promise<Pet> {
    this.assertCategory(pet.categoryId);
    const created = row(this.tables.nextId('pets'), pet);
    this.tables.pets.set(created.id, created);
    return created;
  }

  async update(pet: Pet): Promise<Pet | null> {
    if (!this.tables.pets.has(pet.id)) return null;
    this.assertCategory(pet.categoryId);
    const updated = row(pet.id, pet);
    this.tables.pets.set(pet.id, updated);
    return updated;
  }

  async delete(id: number): Promise<boolean> {
    if (!this.tables.pets.has(id)) return false;
    for (const order of this.tables.orders.values()) {
      if (order.petId === id) throw new PetHasOrdersError(id);
    }
    this.tables.pets.delete(id);
    this.tables.inventory.delete(id); // ON DELETE CASCADE
    return true;
  }

  private assertCategory(categoryId: number): void {
    if (!this.tables.categories.has(categoryId)) throw new PetCategoryNotFoundError(categoryId);
  }
}

function row(id: number, pet: Omit<Pet, 'id'>): Pet {
  return Object.freeze({ id, name: pet.name, categoryId: pet.categoryId, status: pet.status });
}
