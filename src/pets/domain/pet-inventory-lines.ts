import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';

/**
 * Port: the inventory line every pet has. The inventory module keeps the lines and
 * binds this port (a global module, so that the pets module finds the binding
 * without importing it); pets declares only what its use cases need, so that it
 * does not depend on inventory (which depends on pets: statuses, errors, events).
 */
export abstract class PetInventoryLines {
  /** Creates the empty line of a new pet. */
  abstract createLine(petId: number, tx: Transaction): Promise<void>;
  /** Locks the pet's line for the rest of the unit of work, as every store use case does first. */
  abstract lock(petId: number, tx: Transaction): Promise<unknown>;
}
