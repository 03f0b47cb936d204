import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PG_FOREIGN_KEY_VIOLATION, PG_RESTRICT_VIOLATION, violatedConstraint } from '../../database/pg-errors.js';
import { toInt8 } from '../../database/int8.js';
import { PreparedSql } from '../../database/prepared-sql.js';
import { managerOf } from '../../database/typeorm-transaction.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { Pet } from '../domain/pet.js';
import { PetCategoryNotFoundError, PetHasOrdersError } from '../domain/pet.errors.js';
import type { PetFilter, PetRepository } from '../domain/pet.repository.js';
import { PetMapper } from './pet.mapper.js';
import { PET_BY_ID, petPageRead, petPageValues, type PetRow } from './pet.statements.js';
import { PetOrmEntity } from './pet.orm-entity.js';

/** Pets in PostgreSQL: reads outside transactions as prepared statements, writes through TypeORM in the given transaction. */
@Injectable()
export class TypeOrmPetRepository implements PetRepository {
  constructor(
    @InjectRepository(PetOrmEntity) private readonly rows: Repository<PetOrmEntity>,
    private readonly sql: PreparedSql,
  ) {}

  async findById(id: number, tx?: Transaction): Promise<Pet | null> {
    if (tx) {
      const row = await (await this.in(tx)).findOneBy({ id: toInt8(id) });
      return row && PetMapper.toDomain(row);
    }
    const [row] = await this.sql.rows<PetRow>(PET_BY_ID, [id]);
    return row ? PetMapper.fromRow(row) : null;
  }

  async findPage(filter: PetFilter, { limit, afterId }: PageRequest): Promise<Page<Pet>> {
    const ids = onlyIds(filter, afterId, limit);
    if (ids) return { items: await this.findEach(ids), hasMore: false };
    const rows = await this.sql.rows<PetRow>(petPageRead(filter), petPageValues(filter, afterId, limit + 1));
    return toPage(rows.map(PetMapper.fromRow), limit);
  }

  /** The pets of `ids` that exist, by id ascending: each looked up with the other reads of its turn. */
  private async findEach(ids: readonly number[]): Promise<Pet[]> {
    const found = await Promise.all(ids.map((id) => this.sql.rows<PetRow>(PET_BY_ID, [id])));
    return found
      .flat()
      .map(PetMapper.fromRow)
      .sort((a, b) => a.id - b.id);
  }

  async create(pet: Omit<Pet, 'id'>, tx: Transaction): Promise<Pet> {
    const rows = await this.in(tx);
    try {
      return PetMapper.toDomain(await rows.save(rows.create(PetMapper.toColumns(pet))));
    } catch (error) {
      throw this.translate(error, pet.categoryId);
    }
  }

  async update(pet: Pet, tx: Transaction): Promise<Pet | null> {
    try {
      const result = await (await this.in(tx)).update({ id: toInt8(pet.id) }, PetMapper.toColumns(pet));
      return result.affected ? pet : null;
    } catch (error) {
      throw this.translate(error, pet.categoryId);
    }
  }

  async delete(id: number, tx: Transaction): Promise<boolean> {
    try {
      const result = await (await this.in(tx)).delete({ id: toInt8(id) });
      return (result.affected ?? 0) > 0;
    } catch (error) {
      const constraint = violatedConstraint(error, PG_FOREIGN_KEY_VIOLATION, PG_RESTRICT_VIOLATION);
      if (constraint === 'FK_orders_pet') throw new PetHasOrdersError(id);
      throw error;
    }
  }

  /** This module's rows, in the transaction when given one. */
  private async in(tx: Transaction | undefined): Promise<Repository<PetOrmEntity>> {
    return tx ? (await managerOf(tx, this.rows.manager)).getRepository(PetOrmEntity) : this.rows;
  }

  private translate(error: unknown, categoryId: number): unknown {
    return violatedConstraint(error, PG_FOREIGN_KEY_VIOLATION) === 'FK_pets_category'
      ? new PetCategoryNotFoundError(categoryId)
      : error;
  }
}

/**
 * The distinct ids of a filter that names ids and nothing else, on the first page
 * and a page that holds them all (then it is every one of those pets, by id, and
 * no more pages); null for any other page, which is the page query's to answer.
 */
function onlyIds(filter: PetFilter, afterId: number | null, limit: number): readonly number[] | null {
  if (!filter.ids?.length || afterId !== null || filter.statuses?.length || filter.categoryId !== undefined)
    return null;
  const ids = [...new Set(filter.ids)];
  return ids.length <= limit ? ids : null;
}
