import type { EntityManager } from 'typeorm';
import { fromInt8, toInt8 } from '../../database/int8.js';
import type { Statement } from '../../database/prepared-sql.js';
import { managerOf, preparedStepsIn } from '../../database/typeorm-transaction.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { PetStatus } from '../../pets/index.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import { InsufficientStockError } from '../domain/inventory.errors.js';
import type { InventoryLine } from '../domain/inventory-line.js';
import type { InventoryItem, InventoryRepository } from '../domain/inventory.repository.js';

/** Locks a pet's inventory line ($1 pet id) for the rest of the transaction. */
const LOCK_LINE: Statement = {
  name: 'inventory_lock_line',
  text: 'SELECT quantity FROM inventory WHERE pet_id = $1 FOR UPDATE',
};

/** A pet's inventory line and its open orders ($1 pet id): read once the line is locked. */
const READ_LINE: Statement = {
  name: 'inventory_read_line',
  text: `SELECT i.quantity, p.status,
                (SELECT count(*) FROM orders o WHERE o.pet_id = i.pet_id AND NOT o.complete)::int AS open_orders
           FROM inventory i JOIN pets p ON p.id = i.pet_id
          WHERE i.pet_id = $1`,
};

interface LineRow {
  quantity: number;
  status: PetStatus;
  open_orders: number;
}

interface ItemRow {
  pet_id: string;
  quantity: number;
  status: PetStatus;
}

const toItem = (row: ItemRow): InventoryItem => ({
  petId: fromInt8(row.pet_id),
  quantity: row.quantity,
  status: row.status,
});

/** Inventory lines over the `inventory` and `pets` tables; writes and locks in the given transaction. */
export class TypeOrmInventoryRepository implements InventoryRepository {
  constructor(private readonly db: EntityManager) {}

  async createLine(petId: number, tx: Transaction): Promise<void> {
    await (
      await managerOf(tx, this.db)
    ).query('INSERT INTO inventory (pet_id, quantity) VALUES ($1, 0)', [toInt8(petId)]);
  }

  async lock(petId: number, tx: Transaction): Promise<InventoryLine | null> {
    // Lock first, then read in a second statement: its snapshot is taken after the
    // lock is granted, so it sees what the previous holder committed. Both go in one
    // round trip (every store use case's first, so with its BEGIN).
    const id = toInt8(petId);
    const [locked, [row]] = await preparedStepsIn(tx, [
      { statement: LOCK_LINE, values: [id] },
      { statement: READ_LINE, values: [id] },
    ]);
    if (locked.length === 0 || !row) return null;
    const line = row as LineRow;
    return { petId, quantity: line.quantity, status: line.status, openOrders: line.open_orders };
  }

  async save(previous: InventoryLine, next: InventoryLine, tx: Transaction): Promise<void> {
    const db = await managerOf(tx, this.db);
    const delta = next.quantity - previous.quantity;
    if (delta !== 0) {
      const [rows] = (await db.query(
        'UPDATE inventory SET quantity = quantity + $2 WHERE pet_id = $1 AND quantity + $2 >= 0 RETURNING quantity',
        [toInt8(previous.petId), delta],
      )) as [unknown[], number];
      if (rows.length === 0) throw new InsufficientStockError(previous.petId, previous.quantity, -delta);
    }
    if (next.status !== previous.status) {
      await db.query('UPDATE pets SET status = $2 WHERE id = $1', [toInt8(previous.petId), next.status]);
    }
  }

  async findItem(petId: number): Promise<InventoryItem | null> {
    const rows = (await this.db.query(
      'SELECT i.pet_id, i.quantity, p.status FROM inventory i JOIN pets p ON p.id = i.pet_id WHERE i.pet_id = $1',
      [toInt8(petId)],
    )) as ItemRow[];
    return rows.length ? toItem(rows[0]) : null;
  }

  async findPage(
    statuses: readonly PetStatus[] | undefined,
    { limit, afterId }: PageRequest,
  ): Promise<Page<InventoryItem>> {
    const rows = (await this.db.query(
      `SELECT i.pet_id, i.quantity, p.status FROM inventory i JOIN pets p ON p.id = i.pet_id
        WHERE ($1::bigint IS NULL OR i.pet_id > $1)
          AND ($2::pet_status[] IS NULL OR p.status = ANY($2))
        ORDER BY i.pet_id LIMIT $3`,
      [afterId === null ? null : toInt8(afterId), statuses?.length ? statuses : null, limit + 1],
    )) as ItemRow[];
    return toPage(rows.map(toItem), limit);
  }
}
