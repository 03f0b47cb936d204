import { type PetStatus, petStatusChanged, type PetStatusChanged } from '../../pets/index.js';
import type { DomainEvent } from '../../shared/domain-events/domain-event.js';
import type { StockLine } from './inventory-line.js';

/** A pet's units in stock changed (an order, a cancellation, a restock), with the status before and after. */
export interface InventoryChanged extends DomainEvent {
  readonly type: 'InventoryChanged';
  readonly petId: number;
  readonly oldQuantity: number;
  readonly newQuantity: number;
  readonly oldStatus: PetStatus;
  readonly newStatus: PetStatus;
}

/** What an inventory line's transition from `previous` to `next` amounts to: a stock change, a status change, both or none. */
export function inventoryLineEvents(
  previous: StockLine,
  next: StockLine,
  actorKeyId: number | null,
  occurredAt: Date,
): Array<InventoryChanged | PetStatusChanged> {
  const events: Array<InventoryChanged | PetStatusChanged> = [];
  if (next.quantity !== previous.quantity) {
    events.push({
      type: 'InventoryChanged',
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
