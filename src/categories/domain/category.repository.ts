import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { Category, CategoryDraft } from './category.js';

/**
 * Port: category persistence. Writes run in the unit of work's transaction `tx`.
 * Adapters enforce case-insensitive name uniqueness (throwing
 * `CategoryNameTakenError`) and refuse to delete a category that pets reference
 * (throwing `CategoryInUseError`), atomically.
 */
export abstract class CategoryRepository {
  abstract findById(id: number): Promise<Category | null>;
  /** Reads the category in `tx` and locks it until `tx` ends, so what a use case compares is what it changes. */
  abstract findForUpdate(id: number, tx: Transaction): Promise<Category | null>;
  abstract exists(id: number): Promise<boolean>;
  abstract findPage(page: PageRequest): Promise<Page<Category>>;
  abstract create(draft: CategoryDraft, tx: Transaction): Promise<Category>;
  /** Replaces all fields; null when the category does not exist. */
  abstract replace(id: number, draft: CategoryDraft, tx: Transaction): Promise<Category | null>;
  /** False when the category does not exist. */
  abstract delete(id: number, tx: Transaction): Promise<boolean>;
}
