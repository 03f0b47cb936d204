import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { Pet } from './pet.js';
import type { PetStatus } from './pet-status.js';

/** Filters of the pet list; every present filter must match. */
export interface PetFilter {
  readonly statuses?: readonly PetStatus[];
  readonly categoryId?: number;
  readonly ids?: readonly number[];
}

/**
 * Port: pet persistence. Writes run in the unit of work's transaction `tx`; reads
 * run in it when given one. Writes naming a category that does not exist
 * (including one deleted concurrently) throw `PetCategoryNotFoundError`.
 */
export abstract class PetRepository {
  abstract findById(id: number, tx?: Transaction): Promise<Pet | null>;
  abstract findPage(filter: PetFilter, page: PageRequest): Promise<Page<Pet>>;
  abstract create(pet: Omit<Pet, 'id'>, tx: Transaction): Promise<Pet>;
  /** Saves all fields; null when the pet does not exist. */
  abstract update(pet: Pet, tx: Transaction): Promise<Pet | null>;
  /** Deletes the pet and its inventory entry; false when the pet does not exist. Throws `PetHasOrdersError` while any order references it. */
  abstract delete(id: number, tx: Transaction): Promise<boolean>;
}
