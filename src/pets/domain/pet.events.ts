import type { DomainEvent } from '../../shared/domain-events/domain-event.js';
import type { Pet } from './pet.js';
import type { PetStatus } from './pet-status.js';

/** A pet's status changed: by staff (PUT/PATCH) or by the store rules (an order took its last unit, a restock). */
export interface PetStatusChanged extends DomainEvent {
  readonly type: 'PetStatusChanged';
  readonly petId: number;
  readonly oldStatus: PetStatus;
  readonly newStatus: PetStatus;
}

export function petStatusChanged(
  petId: number,
  oldStatus: PetStatus,
  newStatus: PetStatus,
  actorKeyId: number | null,
  occurredAt: Date,
): PetStatusChanged {
  return { type: 'PetStatusChanged', petId, oldStatus, newStatus, actorKeyId, occurredAt };
}

/** A pet joined the catalogue (POST /pets): the pet as saved. */
export interface PetCreated extends DomainEvent {
  readonly type: 'PetCreated';
  readonly pet: Pet;
}

/** Staff changed a pet's fields (PUT/PATCH): the pet as saved. Not recorded for an edit that changes nothing. */
export interface PetUpdated extends DomainEvent {
  readonly type: 'PetUpdated';
  readonly pet: Pet;
}

/** A pet left the catalogue (DELETE): the pet as it was, since it can no longer be read. */
export interface PetDeleted extends DomainEvent {
  readonly type: 'PetDeleted';
  readonly pet: Pet;
}

export const petCreated = (pet: Pet, actorKeyId: number | null, occurredAt: Date): PetCreated => ({
  type: 'PetCreated',
  pet,
  actorKeyId,
  occurredAt,
});

export const petUpdated = (pet: Pet, actorKeyId: number | null, occurredAt: Date): PetUpdated => ({
  type: 'PetUpdated',
  pet,
  actorKeyId,
  occurredAt,
});

export const petDeleted = (pet: Pet, actorKeyId: number | null, occurredAt: Date): PetDeleted => ({
  type: 'PetDeleted',
  pet,
  actorKeyId,
  occurredAt,
});
