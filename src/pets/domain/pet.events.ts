import type { DomainEvent } from '../../shared/domain-events/domain-event.js';
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
