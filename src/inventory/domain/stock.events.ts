import { type PetStatus, petStatusChanged, type PetStatusChanged } from '../../pets/index.js';
import type { DomainEvent } from '../../shared/domain-events/domain-event.js';
import type { StockLine } from './stock-line.js';

/** A pet's units in stock changed (an order, a cancellation, a restock), with the status before and after. */
export interface StockChanged extends DomainEvent {
  readonly type: 'StockChanged';
  readonly petId: number;
  readonly oldQuantity: number;
  readonly newQuantity: number;
  readonly oldStatus: PetStatus;
  readonly newStatus: PetStatus;
}

/** What a stock line's transition from `previous` to `next` amounts to: a stock change, a status change, both or none. */
export function stockLineEvents(
  previous: StockLine,
  next: StockLine,
  actorKeyId: number | null,
  occurredAt: Date,
): Array<StockChanged | PetStatusChanged> {
  const events: Array<StockChanged | PetStatusChanged> = [];
  if (next.quantity !== previous.quantity) {
    events.push({
      type: 'StockChanged',
      petId: previous.petId,
      oldQuantity: previous.quantity,
      newQuantity: next.quantity,
      oldStatus: previous.status,
      newStatus: next.status,
      actorKeyId,
      occurredAt,
    });
  }
  if (next.status !== previous.status) {
    events.push(petStatusChanged(previous.petId, previous.status, next.status, actorKeyId, occurredAt));
  }
  return events;
}
