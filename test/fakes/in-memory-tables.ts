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
 * with pets cannot go). Rows are immutable objects, replaced on change, so a
 * snapshot is a copy of the maps. Sequences, as in PostgreSQL, are not rolled back.
 */
export class InMemoryTables {
  categories = new Map<number, Category>();
  pets = new Map<number, Pet>();
  /** Inventory entries: pet id → units in stock. */
  inventory = new Map<number, number>();
  orders = new Map<number, Order>();
  /** Keyed by `idempotencyKey(ownerKeyId, key)`. */
  idempotency = new Map<string, IdempotencyRow>();
  private readonly sequences = { categories: 0, pets: 0, orders: 0 };

  nextId(table: keyof InMemoryTables['sequences']): number {
    return ++this.sequences[table];
  }

  /** Captures every table; the returned function puts them back (a rollback). */
  snapshot(): () => void {
    const saved = {
      categories: new Map(this.categories),
      pets: new Map(this.pets),
      inventory: new Map(this.inventory),
      orders: new Map(this.orders),
      idempotency: new Map(this.idempotency),
    };
    return () => Object.assign(this, saved);
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
