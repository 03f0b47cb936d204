import { Injectable, Optional } from '@nestjs/common';
import { CategoryRepository } from '../../categories/index.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { Clock, systemClock } from '../../shared/clock.js';
import { UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { newPet, patchPet, type Pet, type PetChanges, type PetDraft, replacePet, samePet } from '../domain/pet.js';
import { petCreated, petDeleted, petStatusChanged, petUpdated } from '../domain/pet.events.js';
import { PetInventoryLines } from '../domain/pet-inventory-lines.js';
import { PetCategoryNotFoundError, PetNotFoundError } from '../domain/pet.errors.js';
import { type PetFilter, PetRepository } from '../domain/pet.repository.js';

/** Use cases for the pet catalogue. */
@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetRepository,
    private readonly categories: CategoryRepository,
    private readonly inventory: PetInventoryLines,
    private readonly uow: UnitOfWork,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  list(filter: PetFilter, page: PageRequest): Promise<Page<Pet>> {
    return this.pets.findPage(filter, page);
  }

  async get(id: number): Promise<Pet> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }

  /** `actorKeyId`: the key making the change, named in the events it causes. */
  async create(draft: PetDraft, actorKeyId: number | null = null): Promise<Pet> {
    await this.requireCategory(draft.categoryId);
    // A pet is an inventory line: it never exists without its inventory entry.
    return this.uow.run(async (tx) => {
      const pet = await this.pets.create(newPet(draft), tx);
      await this.inventory.createLine(pet.id, tx);
      tx.record(petCreated(pet, actorKeyId, this.clock.now()));
      return pet;
    });
  }

  async replace(id: number, draft: PetDraft, actorKeyId: number | null = null): Promise<Pet> {
    return this.edit(id, (pet) => replacePet(pet, draft), actorKeyId);
  }

  async patch(id: number, changes: PetChanges, actorKeyId: number | null = null): Promise<Pet> {
    return this.edit(id, (pet) => patchPet(pet, changes), actorKeyId);
  }

  /**
   * Deletes the pet and its inventory line. The line is locked first, as every store
   * use case does, so a delete and an order placed at the same time take their
   * locks in one order and one waits for the other: the order then finds no pet
   * (422), or the delete finds the order (409 `PET_HAS_ORDERS`). The pet is read
   * under that lock, so the event tells what was deleted.
   */
  async remove(id: number, actorKeyId: number | null = null): Promise<void> {
    await this.uow.run(async (tx) => {
      await this.inventory.lock(id, tx);
      const pet = await this.pets.findById(id, tx);
      if (!pet || !(await this.pets.delete(id, tx))) throw new PetNotFoundError(id);
      tx.record(petDeleted(pet, actorKeyId, this.clock.now()));
    });
  }

  /**
   * Reads, changes and writes the pet with its inventory line locked, so an edit
   * never writes back a status that an order changed meanwhile. A missing
   * category is found by the write itself (its foreign key), not by a query on
   * another connection while this one holds a lock.
   */
  private async edit(id: number, change: (pet: Pet) => Pet, actorKeyId: number | null): Promise<Pet> {
    return this.uow.run(async (tx) => {
      await this.inventory.lock(id, tx);
      const current = await this.pets.findById(id, tx);
      if (!current) throw new PetNotFoundError(id);
      const saved = await this.pets.update(change(current), tx);
      if (!saved) throw new PetNotFoundError(id);
      if (samePet(saved, current)) return saved;
      const now = this.clock.now();
      tx.record(petUpdated(saved, actorKeyId, now));
      if (saved.status !== current.status) {
        tx.record(petStatusChanged(id, current.status, saved.status, actorKeyId, now));
      }
      return saved;
    });
  }

  private async requireCategory(categoryId: number): Promise<void> {
    if (!(await this.categories.exists(categoryId))) throw new PetCategoryNotFoundError(categoryId);
  }
}
