import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Category, CategoryDraft } from './category.js';

/**
 * Port: category persistence. Adapters enforce case-insensitive name uniqueness
 * (throwing `CategoryNameTakenError`) and refuse to delete a category that pets
 * reference (throwing `CategoryInUseError`), atomically.
 */
export interface CategoryRepository {
  findById(id: number): Promise<Category | null>;
  exists(id: number): Promise<boolean>;
  findPage(page: PageRequest): Promise<Page<Category>>;
  create(draft: CategoryDraft): Promise<Category>;
  /** Replaces all fields; null when the category does not exist. */
  replace(id: number, draft: CategoryDraft): Promise<Category | null>;
  /** False when the category does not exist. */
  delete(id: number): Promise<boolean>;
}

export const CATEGORY_REPOSITORY = Symbol('CategoryRepository');
