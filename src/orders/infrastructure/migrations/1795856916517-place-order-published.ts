import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `orders_place(pet, units, ship_date, owner, occurred_at, idempotency_key)`: what
 * `orders_place_from_stock` does (lock the pet's inventory line, then take the units,
 * mark the pet pending on the last one and insert the order), and in the same call
 * the placement's outbox rows and, under an Idempotency-Key, its stored outcome.
 *
 * Why one call: a hot pet's orders queue on its line's row lock, held until COMMIT.
 * Each statement sent after the lock holds it for a round trip through the service
 * and its event loop; with the outbox rows and the outcome written here, only the
 * COMMIT follows (docs/orders.md, "Placing an order"). The rows are those the
 * outbox subscriber would write for the events the rule yields (`toStoreEvent` of
 * InventoryChanged, PetStatusChanged, OrderPlaced, in that order);
 * test/orders-outbox.e2e-spec.ts holds the two to one another. The outcome is
 * `{kind: 'placed', order}` as TypeOrmIdempotencyRepository stores it.
 *
 * The outbox rows are appended under the outbox's advisory lock, as
 * TypeOrmEventStore does, so that event ids become visible in commit order.
 * `orders_place_from_stock` stays for the build before this one during a rolling
 * deploy.
 */
export class PlaceOrderPublished1795856916517 implements MigrationInterface {
  name = 'PlaceOrderPublished1795856916517';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE FUNCTION orders_place(
        p_pet_id bigint, p_units integer, p_ship_date timestamptz, p_owner_key_id bigint,
        p_occurred_at timestamptz, p_idempotency_key text)
      RETURNS TABLE (line_quantity integer, line_status pet_status, order_id bigint)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_quantity integer;
        v_status pet_status;
        v_left integer;
        v_order_id bigint;
      BEGIN
        PERFORM 1 FROM inventory WHERE pet_id = p_pet_id FOR UPDATE;
        IF NOT FOUND THEN
          RETURN;
        END IF;
        -- A statement of its own, after the lock is granted: it reads what the
        -- previous holder committed.
        SELECT i.quantity, p.status INTO v_quantity, v_status
          FROM inventory i JOIN pets p ON p.id = i.pet_id
         WHERE i.pet_id = p_pet_id;
        IF v_status <> 'available' OR v_quantity < p_units THEN
          RETURN QUERY SELECT v_quantity, v_status, NULL::bigint;
          RETURN;
        END IF;
        v_left := v_quantity - p_units;
        UPDATE inventory SET quantity = v_left WHERE pet_id = p_pet_id;
        IF v_left = 0 THEN
          UPDATE pets SET status = 'pending' WHERE id = p_pet_id;
        END IF;
        INSERT INTO orders (pet_id, quantity, ship_date, complete, owner_key_id)
          VALUES (p_pet_id, p_units, p_ship_date, false, p_owner_key_id)
          RETURNING id INTO v_order_id;
        IF p_idempotency_key IS NOT NULL THEN
          UPDATE idempotency_keys
             SET outcome = jsonb_build_object('kind', 'placed', 'order', jsonb_build_object(
                   'id', v_order_id, 'petId', p_pet_id, 'quantity', p_units,
                   'shipDate', to_char(p_ship_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'complete', false, 'ownerKeyId', p_owner_key_id))
           WHERE api_key_id = p_owner_key_id AND key = p_idempotency_key;
        END IF;
        PERFORM pg_advisory_xact_lock(1885697139, 1869968482);
        INSERT INTO events (type, occurred_at, owner_key_id, data)
          VALUES ('inventory.changed', p_occurred_at, NULL, jsonb_build_object(
            'petId', p_pet_id, 'oldQuantity', v_quantity, 'newQuantity', v_left,
            'oldStatus', v_status,
            'newStatus', CASE WHEN v_left = 0 THEN 'pending'::pet_status ELSE v_status END));
        IF v_left = 0 THEN
          INSERT INTO events (type, occurred_at, owner_key_id, data)
            VALUES ('pet.status_changed', p_occurred_at, NULL, jsonb_build_object(
              'petId', p_pet_id, 'oldStatus', v_status, 'newStatus', 'pending'::pet_status));
        END IF;
        INSERT INTO events (type, occurred_at, owner_key_id, data)
          VALUES ('order.placed', p_occurred_at, p_owner_key_id, jsonb_build_object(
            'orderId', v_order_id, 'petId', p_pet_id, 'quantity', p_units));
        RETURN QUERY SELECT v_quantity, v_status, v_order_id;
      END
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP FUNCTION orders_place(bigint, integer, timestamptz, bigint, timestamptz, text)`);
  }
}
