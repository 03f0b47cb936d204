import type { Category } from '../../src/categories/domain/category.js';
import type { OrderOutcome } from '../../src/orders/domain/idempotency.js';
import type { Order } from '../../src/orders/domain/order.js';
import type { Pet } from '../../src/pets/domain/pet.js';

export interface IdempotencyRow {
  readonly requestHash: string;
  readonly outcome: OrderOutcome | null;
  readonly createdAt: Date;
}

/** What the database raises for a broken constraint: a pg-like error with SQLSTATE and constraint name. */
export class ConstraintViolation extends Error {
  constructor(
    readonly code: string,
    readonly constraint: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConstraintViolation';
  }
}

export const foreignKeyViolation = (constraint: string, detail: string) =>
  new ConstraintViolation('23503', constraint, `violates foreign key constraint "${constraint}": ${detail}`);

export const uniqueViolation = (constraint: string, detail: string) =>
  new ConstraintViolation(
    '23505',
    constraint,
    `duplicate key value violates unique constraint "${constraint}": ${detail}`,
  );

/**
 * The rows of the in-memory database that the fakes share, so their foreign keys
 * hold across repositories (a pet needs its category, an order its pet, a category
 * with pets cannot go). Every table is a named `Map` registered here, the core's
 * and a module's own (`tables.table('example_loyalty_points')`): `snapshot()` saves
 * them all and rolls them all back, which is how the fake unit of work undoes a
 * transaction or a savepoint. Rows are immutable objects, replaced on change, so a
 * snapshot is a copy of the maps. Sequences, as in PostgreSQL, are not rolled back.
 */
export class InMemoryTables {
  private readonly registered = new Map<string, Map<unknown, unknown>>();
  readonly categories = this.table<number, Category>('categories');
  readonly pets = this.table<number, Pet>('pets');
  /** Inventory entries: pet id → units in stock. */
  readonly inventory = this.table<number, number>('inventory');
  readonly orders = this.table<number, Order>('orders');
  /** Keyed by `idempotencyKey(ownerKeyId, key)`. */
  readonly idempotency = this.table<string, IdempotencyRow>('idempotency');
  private readonly sequences = { categories: 0, pets: 0, orders: 0 };

  /**
   * The table of this name, created empty on first use: the same `Map` for the same
   * name, so a fake may keep it. Its rows roll back with every other table's.
   */
  table<K, V>(name: string): Map<K, V> {
    let rows = this.registered.get(name);
    if (!rows) {
      rows = new Map();
      this.registered.set(name, rows);
    }
    return rows as Map<K, V>;
  }

  nextId(table: keyof InMemoryTables['sequences']): number {
    return ++this.sequences[table];
  }

  /**
   * Captures every table; the returned function puts their rows back (a rollback)
   * into the same maps, and empties a table first used after the capture.
   */
  snapshot(): () => void {
    const saved = new Map([...this.registered].map(([name, rows]) => [name, new Map(rows)]));
    return () => {
      for (const [name, rows] of this.registered) {
        rows.clear();
        for (const [key, row] of saved.get(name) ?? []) rows.set(key, row);
      }
    };
  }
}

export function idempotencyKey(ownerKeyId: number, key: string): string {
  return `${ownerKeyId}\u0000${key}`;
}

/** Rows ascending by id, strictly after `afterId`, at most `limit + 1` (the keyset query). */
export function keysetRows<T>(rows: Iterable<T>, idOf: (row: T) => number, afterId: number | null, limit: number): T[] {
  return [...rows]
    .filter((row) => afterId === null || idOf(row) > afterId)
    .sort((a, b) => idOf(a) - idOf(b))
    .slice(0, limit + 1);
}
