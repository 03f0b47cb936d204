import type { PetStatus } from '../../pets/index.js';
import { InsufficientStockError, PetNotAvailableError } from './stock.errors.js';

/**
 * A pet seen as a stock-keeping line: units in stock, its sale status and how many
 * of its orders are still open. Every store event is a pure transition of this
 * value (API.md section 3); adapters persist the result atomically.
 */
export interface StockLine {
  readonly petId: number;
  readonly quantity: number;
  readonly status: PetStatus;
  readonly openOrders: number;
}

/** Place an order: only while available and in stock; the last unit makes the pet pending. */
export function placeOrder(line: StockLine, units: number): StockLine {
  if (line.status !== 'available') throw new PetNotAvailableError(line.petId, line.status);
  if (line.quantity < units) throw new InsufficientStockError(line.petId, line.quantity, units);
  const quantity = line.quantity - units;
  return { ...line, quantity, openOrders: line.openOrders + 1, status: quantity === 0 ? 'pending' : line.status };
}

/** Complete an open order: once stock is 0 and no order remains open, the pet is sold. */
export function completeOrder(line: StockLine): StockLine {
  const openOrders = Math.max(0, line.openOrders - 1);
  return { ...line, openOrders, status: line.quantity === 0 && openOrders === 0 ? 'sold' : line.status };
}

/** Cancel an open order: its units return to stock and a pending pet is available again. */
export function cancelOrder(line: StockLine, units: number): StockLine {
  return {
    ...line,
    quantity: line.quantity + units,
    openOrders: Math.max(0, line.openOrders - 1),
    status: line.status === 'pending' ? 'available' : line.status,
  };
}

/**
 * Set the stock count (PUT inventory): units make a pending or sold pet available;
 * zero units take an available pet off sale, pending while orders are open, else sold.
 */
export function restock(line: StockLine, quantity: number): StockLine {
  if (quantity > 0) return { ...line, quantity, status: 'available' };
  if (line.status !== 'available') return { ...line, quantity };
  return { ...line, quantity, status: line.openOrders > 0 ? 'pending' : 'sold' };
}
