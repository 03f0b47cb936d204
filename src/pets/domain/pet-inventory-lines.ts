import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';

/**
 * Port: the inventory line every pet has. The inventory module keeps the lines and
 * binds this port; pets declares only what its use cases need, so that it does
 * not depend on inventory (which depends on pets: statuses, errors, events).
 */
export interface PetInventoryLines {
  /** Creates the empty line of a new pet. */
  createLine(petId: number, tx: Transaction): Promise<void>;
  /** Locks the pet's line for the rest of the unit of work, as every store use case does first. */
  lock(petId: number, tx: Transaction): Promise<unknown>;
}

export const PET_INVENTORY_LINES = Symbol('PetInventoryLines');
