import type { Statement } from '../../database/prepared-sql.js';
import type { PetStatus } from '../../pets/index.js';

/** The row of {@link PLACE_FROM_STOCK}: the line before, and the new order's id (null: nothing taken). */
export interface PlaceFromStockRow {
  readonly quantity: number;
  readonly status: PetStatus;
  readonly order_id: string | null;
}

/**
 * Locks the pet's inventory row ($1 pet id), as every store use case does first.
 * A statement of its own: the next statement's snapshot is taken once the lock is
 * granted, so it reads what the previous holder of the lock committed (a statement
 * that waited for the lock itself would read the pets row as it was before).
 */
export const LOCK_STOCK_LINE: Statement = {
  name: 'orders_lock_stock_line',
  text: 'SELECT 1 FROM inventory WHERE pet_id = $1 FOR UPDATE',
};

/**
 * Places an order in one statement, under the lock of {@link LOCK_STOCK_LINE}
 * ($1 pet id, $2 units, $3 ship date, $4 owner key id): only when the pet is
 * available with enough units it takes them, makes the pet pending on the last
 * unit, and inserts the order (PostgreSQL runs every data-modifying part of a WITH
 * once, read or not). Returns the line as it was, and the order's id or null.
 */
export const PLACE_FROM_STOCK: Statement = {
  name: 'orders_place_from_stock',
  text: `WITH line AS (
           SELECT i.pet_id, i.quantity, p.status
             FROM inventory i JOIN pets p ON p.id = i.pet_id
            WHERE i.pet_id = $1
         ), taken AS (
           UPDATE inventory SET quantity = inventory.quantity - $2
             FROM line
            WHERE inventory.pet_id = line.pet_id AND line.status = 'available' AND line.quantity >= $2
           RETURNING inventory.quantity
         ), marked AS (
           UPDATE pets SET status = 'pending' FROM taken WHERE pets.id = $1 AND taken.quantity = 0
           RETURNING pets.id
         ), placed AS (
           INSERT INTO orders (pet_id, quantity, ship_date, complete, owner_key_id)
           SELECT $1, $2, $3, false, $4 FROM taken
           RETURNING id
         )
         SELECT line.quantity, line.status, (SELECT id FROM placed)::text AS order_id FROM line`,
};
