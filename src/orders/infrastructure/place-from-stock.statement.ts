import type { Statement } from '../../database/prepared-sql.js';
import type { PetStatus } from '../../pets/index.js';

/** The row of {@link PLACE_FROM_STOCK}: the line before, and the new order's id (null: nothing taken). */
export interface PlaceFromStockRow {
  readonly line_quantity: number;
  readonly line_status: PetStatus;
  readonly order_id: string | null;
}

/**
 * Places an order ($1 pet id, $2 units, $3 ship date, $4 owner key id) through
 * the `orders_place_from_stock` function (migration PlaceOrderFunction): it
 * locks the pet's inventory line, as every store use case does first, then in
 * one statement, only when the pet is available with enough units, takes them,
 * makes the pet pending on the last unit and inserts the order. No row: the pet
 * has no inventory line. One round trip, so the line is not held while the
 * answer travels to the service and the next statement back.
 */
export const PLACE_FROM_STOCK: Statement = {
  name: 'orders_place_from_stock',
  text: 'SELECT line_quantity, line_status, order_id::text FROM orders_place_from_stock($1, $2, $3, $4)',
};
