import type { Category, CategoryDraft } from '../../src/categories/domain/category.js';
import { CategoryInUseError, CategoryNameTakenError } from '../../src/categories/domain/category.errors.js';
import type { CategoryRepository } from '../../src/categories/domain/category.repository.js';
import { type Page, type PageRequest, toPage } from '../../src/shared/paging/page.js';
import { InMemoryTables, keysetRows } from './in-memory-tables.js';

/**
 * A faithful in-memory `CategoryRepository`: ids from a sequence that never reuses
 * a value, keyset pages by ascending id, names unique regardless of case
 * (`CategoryNameTakenError`), and no deleting a category that pets in the shared
 * tables still belong to (`CategoryInUseError`). Each call checks and writes
 * without yielding, so it is as atomic as the database adapter.
 */
export class InMemoryCategoryRepository implements CategoryRepository {
  constructor(readonly tables: InMemoryTables = new InMemoryTables()) {}

  /** Every stored category, ascending by id (for assertions). */
  all(): Category[] {
    return [...this.tables.categories.values()].sort((a, b) => a.id - b.id);
  }

  async findById(id: number): Promise<Category | null> {
    return this.tables.categories.get(id) ?? null;
  }

  /** As `findById`: the fake's transactions run one at a time, so there is nothing to lock. */
  async findForUpdate(id: number): Promise<Category | null> {
    return this.findById(id);
  }

  async exists(id: number): Promise<boolean> {
    return this.tables.categories.has(id);
  }

  async findPage({ limit, afterId }: PageRequest): Promise<Page<Category>> {
    return toPage(
      keysetRows(this.tables.categories.values(), (c) => c.id, afterId, limit),
      limit,
    );
  }

  async create(draft: CategoryDraft): Promise<Category> {
    this.assertNameFree(draft.name, null);
    const category = row(this.tables.nextId('categories'), draft);
    this.tables.categories.set(category.id, category);
    return category;
  }

  async replace(id: number, draft: CategoryDraft): Promise<Category | null> {
    if (!this.tables.categories.has(id)) return null;
    this.assertNameFree(draft.name, id);
    const category = row(id, draft);
    this.tables.categories.set(id, category);
    return category;
  }

  async delete(id: number): Promise<boolean> {
    if (!this.tables.categories.has(id)) return false;
    for (const pet of this.tables.pets.values()) {
      if (pet.categoryId === id) throw new CategoryInUseError(id);
    }
    this.tables.categories.delete(id);
    return true;
  }

  private assertNameFree(name: string, ownId: number | null): void {
    const lower = name.toLowerCase();
    for (const other of this.tables.categories.values()) {
      if (other.id !== ownId && other.name.toLowerCase() === lower) throw new CategoryNameTakenError(name);
    }
  }
}

/** Only the persisted fields; an absent description stays absent, as the mapper returns it. */
function row(id: number, draft: CategoryDraft): Category {
  return Object.freeze(
    draft.description === undefined
      ? { id, name: draft.name }
      : { id, name: draft.name, description: draft.description },
  );
}
