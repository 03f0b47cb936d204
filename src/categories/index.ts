/** The categories module's public entry: all that other modules and the composition root may import from it. */
export type { Category } from './domain/category.js';
export type { CategoryCreated, CategoryDeleted, CategoryUpdated } from './domain/category.events.js';
export { CategoryRepository } from './domain/category.repository.js';
export { CategoryResponse } from './http/dto/category.response.js';
export { CategoriesService } from './application/categories.service.js';
export { CATEGORY_ENTITIES, CategoriesModule } from './categories.module.js';
