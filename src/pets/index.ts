/** The pets module's public entry: all that other modules and the composition root may import from it. */
export { PET_STATUSES, type PetStatus } from './domain/pet-status.js';
export { OperationSunsetError, PetNotFoundError } from './domain/pet.errors.js';
export type { Pet } from './domain/pet.js';
export {
  type PetCreated,
  type PetDeleted,
  petStatusChanged,
  type PetStatusChanged,
  type PetUpdated,
} from './domain/pet.events.js';
export { PetInventoryLines } from './domain/pet-inventory-lines.js';
export { PET_STATUS_SCHEMA } from './http/dto/new-pet.dto.js';
export { PetResponse } from './http/dto/pet.response.js';
export { PetsService } from './application/pets.service.js';
export { PET_ENTITIES, PetsModule } from './pets.module.js';
