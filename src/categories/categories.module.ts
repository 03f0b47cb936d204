import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesService } from './application/categories.service.js';
import { CategoryRepository } from './domain/category.repository.js';
import { CategoriesController } from './http/categories.controller.js';
import { CategoryOrmEntity } from './infrastructure/category.orm-entity.js';
import { TypeOrmCategoryRepository } from './infrastructure/typeorm-category.repository.js';

/** This module's tables, as TypeORM entities. */
export const CATEGORY_ENTITIES = [CategoryOrmEntity];

@Module({
  imports: [TypeOrmModule.forFeature(CATEGORY_ENTITIES)],
  controllers: [CategoriesController],
  providers: [CategoriesService, { provide: CategoryRepository, useClass: TypeOrmCategoryRepository }],
  exports: [CategoryRepository, CategoriesService],
})
export class CategoriesModule {}
