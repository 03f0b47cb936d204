import { Inject, Injectable } from '@nestjs/common';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Category, CategoryDraft } from '../domain/category.js';
import { CategoryNotFoundError } from '../domain/category.errors.js';
import { CATEGORY_REPOSITORY, type CategoryRepository } from '../domain/category.repository.js';

/** Use cases for categories. */
@Injectable()
export class CategoriesService {
  constructor(@Inject(CATEGORY_REPOSITORY) private readonly categories: CategoryRepository) {}

  list(page: PageRequest): Promise<Page<Category>> {
    return this.categories.findPage(page);
  }

  async get(id: number): Promise<Category> {
    const category = await this.categories.findById(id);
    if (!category) throw new CategoryNotFoundError(id);
    return category;
  }

  create(draft: CategoryDraft): Promise<Category> {
    return this.categories.create(draft);
  }

  async replace(id: number, draft: CategoryDraft): Promise<Category> {
    const category = await this.categories.replace(id, draft);
    if (!category) throw new CategoryNotFoundError(id);
    return category;
  }

  async remove(id: number): Promise<void> {
    if (!(await this.categories.delete(id))) throw new CategoryNotFoundError(id);
  }
}
