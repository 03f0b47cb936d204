import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `orders_place(pet, units, ship_date, owner, occurred_at, idempotency_key, request_hash,
 * expired_before)`: a whole order placement in one call. Under an Idempotency-Key it
 * first claims the key (or returns the record an earlier request left: `replay_hash`,
 * `replay_outcome`); then it does what `orders_place_from_stock` does (lock the pet's
 * inventory line, then take the units, mark the pet pending on the last one and
 * insert the order), writes the placement's outbox rows and stores the outcome under
 * the key: the order, or for a refusal the line it was refused on (null: no line),
 * from which the domain rule names the refusal again on a replay.
 *
 * Why one call: a hot pet's orders queue on its line's row lock, held until the
 * transaction ends. Each statement sent after the lock holds it for a round trip
 * through the service and its event loop; in one call, nothing does, and outside a
 * transaction the lock is held only inside PostgreSQL (docs/orders.md, "Placing an
 * order"). The outbox rows are those the outbox subscriber would write for the events
 * the rule yields (`toStoreEvent` of InventoryChanged, PetStatusChanged, OrderPlaced,
 * in that order), appended under the outbox's advisory lock as TypeOrmEventStore
 * does; test/orders-outbox.e2e-spec.ts holds the two to one another.
 * `orders_place_from_stock` stays for the build before this one during a rolling
 * deploy (whose refusal outcomes, `{kind: 'refused', code, errorKind, message}`,
 * this build still replays).
 */
export class PlaceOrderPublished1795856916517 implements MigrationInterface {
  name = 'PlaceOrderPublished1795856916517';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE FUNCTION orders_place(
        p_pet_id bigint, p_units integer, p_ship_date timestamptz, p_owner_key_id bigint,
        p_occurred_at timestamptz, p_idempotency_key text, p_request_hash text, p_expired_before timestamptz)
      RETURNS TABLE (line_quantity integer, line_status pet_status, order_id bigint,
                     replay_hash text, replay_outcome jsonb)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_quantity integer;
        v_status pet_status;
        v_left integer;
        v_order_id bigint;
        v_outcome jsonb;
      BEGIN
        IF p_idempotency_key IS NOT NULL THEN
          -- Inserting claims the key; a concurrent request with the same key waits
          -- here until this one ends, then finds its outcome; an expired record is
          -- taken over.
          INSERT INTO idempotency_keys (api_key_id, key, request_hash, outcome, created_at)
            VALUES (p_owner_key_id, p_idempotency_key, p_request_hash, NULL, p_occurred_at)
            ON CONFLICT (api_key_id, key) DO UPDATE
               SET request_hash = EXCLUDED.request_hash, outcome = NULL, created_at = EXCLUDED.created_at
             WHERE idempotency_keys.created_at < p_expired_before;
          IF NOT FOUND THEN
            RETURN QUERY SELECT NULL::integer, NULL::pet_status, NULL::bigint, k.request_hash::text, k.outcome
              FROM idempotency_keys k WHERE k.api_key_id = p_owner_key_id AND k.key = p_idempotency_key;
            RETURN;
          END IF;
        END IF;
        PERFORM 1 FROM inventory WHERE pet_id = p_pet_id FOR UPDATE;
        IF FOUND THEN
          -- A statement of its own, after the lock is granted: it reads what the
          -- previous holder committed.
          SELECT i.quantity, p.status INTO v_quantity, v_status
            FROM inventory i JOIN pets p ON p.id = i.pet_id
           WHERE i.pet_id = p_pet_id;
        END IF;
        IF v_quantity IS NULL OR v_status <> 'available' OR v_quantity < p_units THEN
          -- Refused: the outcome keeps the line the rule refused (null: no line), so that
          -- a replay names the same refusal.
          v_outcome := jsonb_build_object('kind', 'refused', 'line', CASE WHEN v_quantity IS NULL THEN NULL
            ELSE jsonb_build_object('quantity', v_quantity, 'status', v_status) END);
        ELSE
          v_left := v_quantity - p_units;
          UPDATE inventory SET quantity = v_left WHERE pet_id = p_pet_id;
          IF v_left = 0 THEN
            UPDATE pets SET status = 'pending' WHERE id = p_pet_id;
          END IF;
          INSERT INTO orders (pet_id, quantity, ship_date, complete, owner_key_id)
            VALUES (p_pet_id, p_units, p_ship_date, false, p_owner_key_id)
            RETURNING id INTO v_order_id;
          v_outcome := jsonb_build_object('kind', 'placed', 'order', jsonb_build_object(
            'id', v_order_id, 'petId', p_pet_id, 'quantity', p_units,
            'shipDate', to_char(p_ship_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'complete', false, 'ownerKeyId', p_owner_key_id));
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
        END IF;
        IF p_idempotency_key IS NOT NULL THEN
          UPDATE idempotency_keys SET outcome = v_outcome
           WHERE api_key_id = p_owner_key_id AND key = p_idempotency_key;
        END IF;
        RETURN QUERY SELECT v_quantity, v_status, v_order_id, NULL::text, NULL::jsonb;
      END
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `DROP FUNCTION orders_place(bigint, integer, timestamptz, bigint, timestamptz, text, text, timestamptz)`,
    );
  }
}
