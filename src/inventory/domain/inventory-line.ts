import type { PetStatus } from '../../pets/index.js';

/**
 * A pet seen as an inventory line: units in stock, its sale status and how many
 * of its orders are still open. Every store event is a pure transition of this
 * value (API.md section 3): restocking here, the order verbs in the orders
 * module's domain; adapters persist the result atomically.
 */
export interface InventoryLine {
  readonly petId: number;
  readonly quantity: number;
  readonly status: PetStatus;
  readonly openOrders: number;
}

/** What a change of a line may set: its stock, its pet's status, or both. */
export type LineChange = Partial<Pick<InventoryLine, 'quantity' | 'status'>>;

/** An inventory line without its count of open orders: what placing an order reads and changes. */
export type StockLine = Omit<InventoryLine, 'openOrders'>;

/**
 * Set the stock count (PUT inventory): units make a pending or sold pet available;
 * zero units take an available pet off sale, pending while orders are open, else sold.
 */
export function restock(line: InventoryLine, quantity: number): InventoryLine {
  if (quantity > 0) return { ...line, quantity, status: 'available' };
  if (line.status !== 'available') return { ...line, quantity };
  return { ...line, quantity, status: line.openOrders > 0 ? 'pending' : 'sold' };
}
