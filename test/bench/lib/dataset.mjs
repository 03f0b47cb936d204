// The bench's data, bulk-loaded with SQL into the database the service has just
// migrated (and seeded with its demo catalogue): 10,000 pets in one category (the
// "10k" deep page pages through them) and enough pets in a second one to make
// 1,000,000 in all (the "1M" deep page), each with its inventory row. One pet of
// the 10k category is the hot pet of the orders scenario: available, with a stock
// that no run can exhaust.
import pg from 'pg';

export const TOTAL_PETS = 1_000_000;
export const CATEGORY_PETS = 10_000;
/** Stock of the hot pet (inventory.quantity is an int4). */
const HOT_STOCK = 2_000_000_000;

/**
 * Puts the hot pet back as loaded: no orders, full stock, and the orders table
 * vacuumed. Run before every orders run, so that each starts from the same state
 * whatever ran before it (the service counts the pet's open orders under the lock,
 * a cost that grows with every order placed).
 */
export async function resetHotPet(databaseUrl, hotPetId) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('DELETE FROM orders WHERE pet_id = $1', [hotPetId]);
    await db.query("UPDATE pets SET status = 'available' WHERE id = $1", [hotPetId]);
    await db.query('UPDATE inventory SET quantity = $2 WHERE pet_id = $1', [hotPetId, HOT_STOCK]);
    await db.query('VACUUM ANALYZE orders, inventory');
  } finally {
    await db.end();
  }
}

/** How many different requests a spread scenario asks (at random, each time). */
export const SPREAD = 1_000;

/** `count` ids in `[first, last]`, the same ones on every run (a fixed linear congruential sequence). */
function spread(first, last, count) {
  let state = 12_345;
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return first + (state % (last - first + 1));
  });
}

/** Inserts `count` pets into `categoryId` (statuses 80% available, 10% pending, 10% sold); their id range. */
async function insertPets(db, categoryId, count, label) {
  const { rows } = await db.query(
    `WITH added AS (
       INSERT INTO pets (name, category_id, status)
       SELECT $3::text || ' ' || g, $1,
              (CASE g % 10 WHEN 0 THEN 'sold' WHEN 5 THEN 'pending' ELSE 'available' END)::pet_status
         FROM generate_series(1, $2::int) AS g
       RETURNING id)
     SELECT min(id)::bigint AS first, max(id)::bigint AS last FROM added`,
    [categoryId, count, label],
  );
  return { first: Number(rows[0].first), last: Number(rows[0].last) };
}

/** Loads the data and returns the ids and paths the scenarios and checks use. */
export async function loadDataset(databaseUrl) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const existing = Number((await db.query('SELECT count(*) AS n FROM pets')).rows[0].n);
    const { rows: categories } = await db.query(
      `INSERT INTO categories (name, description)
       VALUES ('Bench 10k', 'Bench: ${CATEGORY_PETS} pets'), ('Bench bulk', 'Bench: the rest of ${TOTAL_PETS} pets')
       RETURNING id`,
    );
    const [small, bulk] = categories.map((row) => Number(row.id));
    const inSmall = await insertPets(db, small, CATEGORY_PETS, 'Bench');
    const inBulk = await insertPets(db, bulk, TOTAL_PETS - CATEGORY_PETS - existing, 'Bulk');
    await db.query(
      `INSERT INTO inventory (pet_id, quantity)
       SELECT p.id, p.id % 50 FROM pets p WHERE NOT EXISTS (SELECT 1 FROM inventory i WHERE i.pet_id = p.id)`,
    );
    const hotPetId = inSmall.first;
    const soldPetId = Number(
      (await db.query("SELECT id FROM pets WHERE category_id = $1 AND status = 'sold' ORDER BY id LIMIT 1", [small]))
        .rows[0].id,
    );
    await db.query('VACUUM ANALYZE categories, pets, inventory');
    await resetHotPet(databaseUrl, hotPetId);
    const total = Number((await db.query('SELECT count(*) AS n FROM pets')).rows[0].n);
    const deep10kAfter = inSmall.first + Math.floor(CATEGORY_PETS * 0.9) - 1;
    const deep1mAfter = inBulk.last - Math.floor(TOTAL_PETS * 0.1);
    /** `after` and the SPREAD - 1 ids before it: pages as deep as its own. */
    const upTo = (after) => Array.from({ length: SPREAD }, (_, i) => after - i);
    return {
      totalPets: total,
      categoryId: small,
      /** A pet in the middle of the million. */
      petId: inBulk.first + Math.floor((inBulk.last - inBulk.first) / 2),
      missingPetId: inBulk.last + 1_000_000,
      hotPetId,
      soldPetId,
      /** Ids after which the deep pages start: 90% of the way through each set. */
      deep10kAfter,
      deep1mAfter,
      /** Near the end of the 10k: a page with no next link. */
      last10kAfter: inSmall.last - 5,
      /** Pets across the million, for the scenarios that ask a different pet each time. */
      spreadPetIds: spread(inBulk.first, inBulk.last, SPREAD),
      /** Cursors of deep pages, the last SPREAD before each deep page's own (so every page is as deep). */
      deep10kAfters: upTo(deep10kAfter),
      deep1mAfters: upTo(deep1mAfter),
    };
  } finally {
    await db.end();
  }
}
