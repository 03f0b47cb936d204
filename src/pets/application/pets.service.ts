import { Inject, Injectable } from '@nestjs/common';
import { CATEGORY_REPOSITORY, type CategoryRepository } from '../../categories/domain/category.repository.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { newPet, patchPet, type Pet, type PetChanges, type PetDraft, replacePet } from '../domain/pet.js';
import { PetCategoryNotFoundError, PetNotFoundError } from '../domain/pet.errors.js';
import { PET_REPOSITORY, type PetFilter, type PetRepository } from '../domain/pet.repository.js';

/** Use cases for the pet catalogue. */
@Injectable()
export class PetsService {
  constructor(
    @Inject(PET_REPOSITORY) private readonly pets: PetRepository,
    @Inject(CATEGORY_REPOSITORY) private readonly categories: CategoryRepository,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
  ) {}

  list(filter: PetFilter, page: PageRequest): Promise<Page<Pet>> {
    return this.pets.findPage(filter, page);
  }

  async get(id: number): Promise<Pet> {
    const pet = await this.pets.findById(id);
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }

  async create(draft: PetDraft): Promise<Pet> {
    await this.requireCategory(draft.categoryId);
    // A pet is a stock-keeping line: it never exists without its inventory entry.
    return this.uow.run(async (tx) => {
      const pet = await tx.pets.create(newPet(draft));
      await tx.stock.createLine(pet.id);
      return pet;
    });
  }

  async replace(id: number, draft: PetDraft): Promise<Pet> {
    return this.save(replacePet(await this.get(id), draft));
  }

  async patch(id: number, changes: PetChanges): Promise<Pet> {
    return this.save(patchPet(await this.get(id), changes));
  }

  async remove(id: number): Promise<void> {
    if (!(await this.pets.delete(id))) throw new PetNotFoundError(id);
  }

  private async save(pet: Pet): Promise<Pet> {
    await this.requireCategory(pet.categoryId);
    const saved = await this.pets.update(pet);
    if (!saved) throw new PetNotFoundError(pet.id);
    return saved;
  }

  private async requireCategory(categoryId: number): Promise<void> {
    if (!(await this.categories.exists(categoryId))) throw new PetCategoryNotFoundError(categoryId);
  }
}
