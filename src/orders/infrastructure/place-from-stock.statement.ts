import type { Statement } from '../../database/prepared-sql.js';
import type { PetStatus } from '../../pets/index.js';

/** The row of {@link PLACE_FROM_STOCK}: the line before, and the new order's id (null: nothing taken). */
export interface PlaceFromStockRow {
  readonly quantity: number;
  readonly status: PetStatus;
  readonly order_id: string | null;
}

/**
 * Places an order in one statement ($1 pet id, $2 units, $3 ship date, $4 owner
 * key id): locks the pet's inventory row and pets row (the lock order of every
 * store use case: inventory first), and only when the pet is available with
 * enough units takes them, makes the pet pending on the last unit, and inserts
 * the order (PostgreSQL runs every data-modifying part of a WITH once, read or
 * not). Locking both rows makes PostgreSQL re-read both at their latest committed
 * version once the lock is granted, so the rule sees what the previous holder of
 * the lock wrote. No row: the pet has no inventory line.
 */
export const PLACE_FROM_STOCK: Statement = {
  name: 'orders_place_from_stock',
  text: `WITH line AS (
           SELECT i.pet_id, i.quantity, p.status
             FROM inventory i JOIN pets p ON p.id = i.pet_id
            WHERE i.pet_id = $1
              FOR NO KEY UPDATE OF i, p
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
