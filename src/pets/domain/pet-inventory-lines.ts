import type { RunOptions, Transaction } from '../../shared/unit-of-work/unit-of-work.js';

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

/**
 * How a unit of work that locks a pet's inventory line first is run: it takes its
 * turn with the others on that line (`RunOptions.turnsOf`). Every module that
 * locks the line (pets, inventory, orders) names it this one way.
 */
export function inventoryLineTurns(petId: number): RunOptions {
  return { turnsOf: `inventory line of pet ${petId}` };
}
