import type { Page, PageRequest } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { PetStatus } from '../../pets/index.js';
import type { InventoryLine } from './inventory-line.js';

/** An inventory entry as clients see it: stock and the pet's status. */
export interface InventoryItem {
  readonly petId: number;
  readonly quantity: number;
  readonly status: PetStatus;
}

/**
 * Port: stock per pet. `lock` reads a line and holds it for the rest of the unit
 * of work, so every store event on one pet is applied one at a time; `save`
 * writes the change from `previous` to `next` (quantity as one guarded atomic
 * statement that can never make stock negative, status when it changed).
 */
export abstract class InventoryRepository {
  /** Creates the empty entry of a new pet. */
  abstract createLine(petId: number, tx: Transaction): Promise<void>;
  abstract lock(petId: number, tx: Transaction): Promise<InventoryLine | null>;
  abstract save(previous: InventoryLine, next: InventoryLine, tx: Transaction): Promise<void>;
  abstract findItem(petId: number): Promise<InventoryItem | null>;
  abstract findPage(statuses: readonly PetStatus[] | undefined, page: PageRequest): Promise<Page<InventoryItem>>;
}
