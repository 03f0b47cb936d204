import { Injectable, Optional } from '@nestjs/common';
import { Clock, systemClock } from '../../shared/clock.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { type Category, type CategoryDraft, sameCategory } from '../domain/category.js';
import { categoryCreated, categoryDeleted, categoryUpdated } from '../domain/category.events.js';
import { CategoryNotFoundError } from '../domain/category.errors.js';
import { CategoryRepository } from '../domain/category.repository.js';

/**
 * Use cases for categories. Each change runs in one transaction with the event it
 * records (`actorKeyId`: the key making it), so a refused change records none.
 */
@Injectable()
export class CategoriesService {
  constructor(
    private readonly categories: CategoryRepository,
    private readonly uow: UnitOfWork,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  list(page: PageRequest): Promise<Page<Category>> {
    return this.categories.findPage(page);
  }

  async get(id: number): Promise<Category> {
    const category = await this.categories.findById(id);
    if (!category) throw new CategoryNotFoundError(id);
    return category;
  }

  create(draft: CategoryDraft, actorKeyId: number | null = null): Promise<Category> {
    return this.uow.run(async (tx) => {
      const category = await this.categories.create(draft, tx);
      tx.record(categoryCreated(category, actorKeyId, this.clock.now()));
      return category;
    });
  }

  replace(id: number, draft: CategoryDraft, actorKeyId: number | null = null): Promise<Category> {
    return this.uow.run(async (tx) => {
      const current = await this.categories.findForUpdate(id, tx);
      if (!current) throw new CategoryNotFoundError(id);
      const saved = await this.categories.replace(id, draft, tx);
      if (!saved) throw new CategoryNotFoundError(id);
      if (!sameCategory(saved, current)) tx.record(categoryUpdated(saved, actorKeyId, this.clock.now()));
      return saved;
    });
  }

  async remove(id: number, actorKeyId: number | null = null): Promise<void> {
    await this.uow.run(async (tx) => {
      const category = await this.categories.findForUpdate(id, tx);
      if (!category || !(await this.categories.delete(id, tx))) throw new CategoryNotFoundError(id);
      tx.record(categoryDeleted(category, actorKeyId, this.clock.now()));
    });
  }
}
