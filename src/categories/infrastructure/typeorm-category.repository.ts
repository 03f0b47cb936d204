import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import {
  managerOf,
  PG_FOREIGN_KEY_VIOLATION,
  PG_RESTRICT_VIOLATION,
  PG_UNIQUE_VIOLATION,
  toInt8,
  violatedConstraint,
} from '../../database/index.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { Category, CategoryDraft } from '../domain/category.js';
import { CategoryInUseError, CategoryNameTakenError } from '../domain/category.errors.js';
import type { CategoryRepository } from '../domain/category.repository.js';
import { CategoryMapper } from './category.mapper.js';
import { CategoryOrmEntity } from './category.orm-entity.js';

/** Categories in PostgreSQL through TypeORM; writes (and locked reads) in the unit of work's transaction. */
@Injectable()
export class TypeOrmCategoryRepository implements CategoryRepository {
  constructor(@InjectRepository(CategoryOrmEntity) private readonly rows: Repository<CategoryOrmEntity>) {}

  async findById(id: number): Promise<Category | null> {
    const row = await this.rows.findOneBy({ id: toInt8(id) });
    return row && CategoryMapper.toDomain(row);
  }

  async findForUpdate(id: number, tx: Transaction): Promise<Category | null> {
    const row = await managerOf(tx)
      .getRepository(CategoryOrmEntity)
      .findOne({ where: { id: toInt8(id) }, lock: { mode: 'pessimistic_write' } });
    return row && CategoryMapper.toDomain(row);
  }

  exists(id: number): Promise<boolean> {
    return this.rows.existsBy({ id: toInt8(id) });
  }

  async findPage({ limit, afterId }: PageRequest): Promise<Page<Category>> {
    const query = this.rows
      .createQueryBuilder('c')
      .orderBy('c.id', 'ASC')
      .limit(limit + 1);
    if (afterId !== null) query.where('c.id > :afterId', { afterId });
    return toPage((await query.getMany()).map(CategoryMapper.toDomain), limit);
  }

  async create(draft: CategoryDraft, tx: Transaction): Promise<Category> {
    const rows = managerOf(tx).getRepository(CategoryOrmEntity);
    try {
      return CategoryMapper.toDomain(await rows.save(rows.create(CategoryMapper.toColumns(draft))));
    } catch (error) {
      throw this.translate(error, draft);
    }
  }

  async replace(id: number, draft: CategoryDraft, tx: Transaction): Promise<Category | null> {
    const rows = managerOf(tx).getRepository(CategoryOrmEntity);
    try {
      const result = await rows.update({ id: toInt8(id) }, CategoryMapper.toColumns(draft));
      if (!result.affected) return null;
      const row = await rows.findOneBy({ id: toInt8(id) });
      return row && CategoryMapper.toDomain(row);
    } catch (error) {
      throw this.translate(error, draft);
    }
  }

  async delete(id: number, tx: Transaction): Promise<boolean> {
    try {
      const result = await managerOf(tx)
        .getRepository(CategoryOrmEntity)
        .delete({ id: toInt8(id) });
      return (result.affected ?? 0) > 0;
    } catch (error) {
      if (violatedConstraint(error, PG_FOREIGN_KEY_VIOLATION, PG_RESTRICT_VIOLATION) === 'FK_pets_category')
        throw new CategoryInUseError(id);
      throw error;
    }
  }

  private translate(error: unknown, draft: CategoryDraft): unknown {
    return violatedConstraint(error, PG_UNIQUE_VIOLATION) === 'UQ_categories_name_lower'
      ? new CategoryNameTakenError(draft.name)
      : error;
  }
}
