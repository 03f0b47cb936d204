import { DEFAULT_PET_STATUS, type PetStatus } from './pet-status.js';

/** Fields a client supplies for a pet (the NewPet schema). */
export interface PetDraft {
  readonly name: string;
  readonly categoryId: number;
  readonly status?: PetStatus;
}

/** A partial update: only the fields present change. */
export type PetChanges = Partial<PetDraft>;

/** A pet for sale: an inventory line in one category. */
export interface Pet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: PetStatus;
}

/** What a new pet looks like before it has an id: status defaults to `available`. */
export function newPet(draft: PetDraft): Omit<Pet, 'id'> {
  return { name: draft.name, categoryId: draft.categoryId, status: draft.status ?? DEFAULT_PET_STATUS };
}

/** Full replace (PUT): an omitted status returns to the default. */
export function replacePet(pet: Pet, draft: PetDraft): Pet {
  return { id: pet.id, ...newPet(draft) };
}

/** Partial update (PATCH): absent fields keep their value. */
export function patchPet(pet: Pet, changes: PetChanges): Pet {
  return {
    id: pet.id,
    name: changes.name ?? pet.name,
    categoryId: changes.categoryId ?? pet.categoryId,
    status: changes.status ?? pet.status,
  };
}

/** Whether an edit left every field as it was (then it is no change, and no event). */
export function samePet(a: Pet, b: Pet): boolean {
  return a.id === b.id && a.name === b.name && a.categoryId === b.categoryId && a.status === b.status;
}
