import { InsufficientStockError, type InventoryLine, type StockLine } from '../../inventory/index.js';
import { PetNotAvailableError } from './order.errors.js';

/*
 * What each order verb does to its pet's inventory line (API.md section 3): pure
 * transitions, persisted by the inventory adapter inside the order's transaction.
 */

/** Place an order: only while available and in stock; the last unit makes the pet pending (one more order open). */
export function placeOrder(line: InventoryLine, units: number): InventoryLine;
export function placeOrder(line: StockLine, units: number): StockLine;
export function placeOrder(line: StockLine & { openOrders?: number }, units: number): StockLine | InventoryLine {
  if (line.status !== 'available') throw new PetNotAvailableError(line.petId, line.status);
  if (line.quantity < units) throw new InsufficientStockError(line.petId, line.quantity, units);
  const quantity = line.quantity - units;
  const placed = { ...line, quantity, status: quantity === 0 ? ('pending' as const) : line.status };
  return line.openOrders === undefined ? placed : { ...placed, openOrders: line.openOrders + 1 };
}

/** Complete an open order: once stock is 0 and no order remains open, the pet is sold. */
export function completeOrder(line: InventoryLine): InventoryLine {
  const openOrders = Math.max(0, line.openOrders - 1);
  return { ...line, openOrders, status: line.quantity === 0 && openOrders === 0 ? 'sold' : line.status };
}

/** Cancel an open order: its units return to stock and a pending pet is available again. */
export function cancelOrder(line: InventoryLine, units: number): InventoryLine {
  return {
    ...line,
    quantity: line.quantity + units,
    openOrders: Math.max(0, line.openOrders - 1),
    status: line.status === 'pending' ? 'available' : line.status,
  };
}
