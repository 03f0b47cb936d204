import type { Statement } from '../../database/prepared-sql.js';
import type { KeyedLookup } from '../../database/read-batches.js';
import type { PetFilter } from '../domain/pet.repository.js';

/** A pets row as the statements below return it (int8 as a string, as pg gives it). */
export interface PetRow {
  readonly id: string;
  readonly name: string;
  readonly category_id: string;
  readonly status: 'available' | 'pending' | 'sold';
}

const COLUMNS = 'SELECT id, name, category_id, status FROM pets';

export const PET_BY_ID: Statement = { name: 'pets_by_id', text: `${COLUMNS} WHERE id = $1` };

/** Pets by id, one or many at once (the reads of one turn, see `ReadBatches`). */
export const PET_LOOKUP: KeyedLookup = {
  one: PET_BY_ID,
  many: { name: 'pets_by_ids', text: `${COLUMNS} WHERE id = ANY($1::bigint[])` },
  key: 'id',
};

const pageStatements = new Map<number, Statement>();

/**
 * The keyset page query for the filters present: one named statement per
 * combination (at most eight), so each gets a plan that uses its index
 * (`IDX_pets_status`, `IDX_pets_category_id`, the primary key) instead of one
 * generic plan with optional conditions. Parameters: after id (0 for the first
 * page), then each present filter in the order statuses, category, ids, then the limit.
 */
export function petPageStatement(filter: PetFilter): Statement {
  const statuses = Boolean(filter.statuses?.length);
  const category = filter.categoryId !== undefined;
  const ids = Boolean(filter.ids?.length);
  const key = (statuses ? 1 : 0) | (category ? 2 : 0) | (ids ? 4 : 0);
  let statement = pageStatements.get(key);
  if (!statement) {
    const conditions = ['id > $1'];
    if (statuses) conditions.push(`status = ANY($${conditions.length + 1}::pet_status[])`);
    if (category) conditions.push(`category_id = $${conditions.length + 1}`);
    if (ids) conditions.push(`id = ANY($${conditions.length + 1}::bigint[])`);
    const text = `${COLUMNS} WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT $${conditions.length + 1}`;
    statement = { name: `pets_page_${key}`, text };
    pageStatements.set(key, statement);
  }
  return statement;
}

/** The values of {@link petPageStatement}'s statement, in its order. */
export function petPageValues(filter: PetFilter, afterId: number | null, rows: number): unknown[] {
  const values: unknown[] = [afterId ?? 0];
  if (filter.statuses?.length) values.push(filter.statuses);
  if (filter.categoryId !== undefined) values.push(filter.categoryId);
  if (filter.ids?.length) values.push(filter.ids);
  values.push(rows);
  return values;
}
