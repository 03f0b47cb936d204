import type { Category, CategoryDraft } from '../domain/category.js';
import { fromInt8 } from '../../database/index.js';
import type { CategoryOrmEntity } from './category.orm-entity.js';

export const CategoryMapper = {
  toDomain(this: void, row: CategoryOrmEntity): Category {
    return row.description === null
      ? { id: fromInt8(row.id), name: row.name }
      : { id: fromInt8(row.id), name: row.name, description: row.description };
  },
  toColumns(draft: CategoryDraft): Pick<CategoryOrmEntity, 'name' | 'description'> {
    return { name: draft.name, description: draft.description ?? null };
  },
};
