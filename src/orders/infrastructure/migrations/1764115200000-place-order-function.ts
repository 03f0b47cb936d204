import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `orders_place_from_stock(pet, units, ship_date, owner)`: locks the pet's
 * inventory line, then places the order in one statement under that lock (see
 * TypeOrmOrderRepository.placeFromStock). A function so that the lock and the placing
 * statement are one round trip: the line is held for the time PostgreSQL needs,
 * not for a round trip through the service in between. The placing statement
 * runs after the lock is granted, with a snapshot of its own (a VOLATILE
 * function's statements each take one under READ COMMITTED), so it reads what
 * the previous holder of the lock committed.
 */
export class PlaceOrderFunction1764115200000 implements MigrationInterface {
  name = 'PlaceOrderFunction1764115200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE FUNCTION orders_place_from_stock(
        p_pet_id bigint, p_units integer, p_ship_date timestamptz, p_owner_key_id bigint)
      RETURNS TABLE (line_quantity integer, line_status pet_status, order_id bigint)
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM 1 FROM inventory WHERE pet_id = p_pet_id FOR UPDATE;
        IF NOT FOUND THEN
          RETURN;
        END IF;
        RETURN QUERY
          WITH line AS (
            SELECT i.pet_id, i.quantity, p.status
              FROM inventory i JOIN pets p ON p.id = i.pet_id
             WHERE i.pet_id = p_pet_id
          ), taken AS (
            UPDATE inventory SET quantity = inventory.quantity - p_units
              FROM line
             WHERE inventory.pet_id = line.pet_id AND line.status = 'available' AND line.quantity >= p_units
            RETURNING inventory.quantity
          ), marked AS (
            UPDATE pets SET status = 'pending' FROM taken WHERE pets.id = p_pet_id AND taken.quantity = 0
            RETURNING pets.id
          ), placed AS (
            INSERT INTO orders (pet_id, quantity, ship_date, complete, owner_key_id)
            SELECT p_pet_id, p_units, p_ship_date, false, p_owner_key_id FROM taken
            RETURNING orders.id
          )
          SELECT line.quantity, line.status, (SELECT placed.id FROM placed) FROM line;
      END
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION orders_place_from_stock(bigint, integer, timestamptz, bigint)`);
  }
}
