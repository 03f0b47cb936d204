import type { StockLine } from '../../src/inventory/domain/stock-line.js';
import type { InventoryItem, StockRepository } from '../../src/inventory/domain/stock.repository.js';
import { InsufficientStockError } from '../../src/inventory/domain/stock.errors.js';
import {
  IDEMPOTENCY_RETENTION_MS,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type OrderOutcome,
} from '../../src/orders/domain/idempotency.js';
import type { NewOrder, Order } from '../../src/orders/domain/order.js';
import type { OrderFilter, OrderRepository } from '../../src/orders/domain/order.repository.js';
import type { PetStatus } from '../../src/pets/domain/pet-status.js';
import { type Page, type PageRequest, toPage } from '../../src/shared/paging/page.js';
import type { Transaction, UnitOfWork } from '../../src/shared/unit-of-work/unit-of-work.js';
import { InMemoryPetRepository } from './in-memory-pet.repository.js';

/** A fake whose rows can be saved and put back, as a transaction or savepoint rollback does. */
interface Restorable {
  snapshot(): () => void;
}

/**
 * Orders in memory, like the `orders` table: ids from a sequence that is never
 * rolled back (as in PostgreSQL), keyset pages by ascending id, every present
 * filter applied; completing or deleting only succeeds on an open order, in one
 * step. Returned orders are frozen copies.
 */
export class InMemoryOrderRepository implements OrderRepository, Restorable {
  private rows = new Map<number, Order>();
  private lastId = 0;

  /** Every stored order, ascending by id (for assertions). */
  all(): Order[] {
    return [...this.rows.values()].sort((a, b) => a.id - b.id).map(copy);
  }

  /** Open orders of one pet (the stock line's `openOrders`). */
  openCount(petId: number): number {
    return [...this.rows.values()].filter((o) => o.petId === petId && !o.complete).length;
  }

  snapshot(): () => void {
    const saved = new Map(this.rows);
    return () => {
      this.rows = saved;
    };
  }

  async findById(id: number): Promise<Order | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async findPage(filter: OrderFilter, { limit, afterId }: PageRequest): Promise<Page<Order>> {
    const rows = this.all().filter(
      (o) =>
        (afterId === null || o.id > afterId) &&
        (filter.petId === undefined || o.petId === filter.petId) &&
        (filter.complete === undefined || o.complete === filter.complete) &&
        (filter.ownerKeyId === undefined || o.ownerKeyId === filter.ownerKeyId),
    );
    return toPage(rows.slice(0, limit + 1), limit);
  }

  async create(order: NewOrder, ownerKeyId: number): Promise<Order> {
    const row: Order = {
      id: ++this.lastId,
      petId: order.petId,
      quantity: order.quantity,
      shipDate: order.shipDate ? new Date(order.shipDate.getTime()) : null,
      complete: false,
      ownerKeyId,
    };
    this.rows.set(row.id, row);
    return copy(row);
  }

  async completeIfOpen(id: number, shipDate: Date): Promise<Order | null> {
    const row = this.rows.get(id);
    if (!row || row.complete) return null;
    const done: Order = { ...row, complete: true, shipDate: new Date(shipDate.getTime()) };
    this.rows.set(id, done);
    return copy(done);
  }

  async deleteIfOpen(id: number): Promise<Order | null> {
    const row = this.rows.get(id);
    if (!row || row.complete) return null;
    this.rows.delete(id);
    return copy(row);
  }

  async existsForPet(petId: number): Promise<boolean> {
    return [...this.rows.values()].some((o) => o.petId === petId);
  }
}

/**
 * Stock lines in memory: units per pet and the pet's status (the `pets.status`
 * column the real adapter reads), with the open-order count taken from the order
 * fake. `save` applies the quantity change with the same guard as the SQL
 * (never below zero) and writes the status when it changed.
 */
export class InMemoryStockRepository implements StockRepository, Restorable {
  private lines = new Map<number, { quantity: number; status: PetStatus }>();

  constructor(private readonly orders: InMemoryOrderRepository) {}

  /** Test set-up: a pet's line with some stock and a status. */
  put(petId: number, quantity: number, status: PetStatus = 'available'): void {
    this.lines.set(petId, { quantity, status });
  }

  /** A staff edit of the pet's status (PUT/PATCH /pets), bypassing the store rules. */
  setStatus(petId: number, status: PetStatus): void {
    const line = this.lines.get(petId);
    if (!line) throw new Error(`no stock line for pet ${petId}`);
    this.lines.set(petId, { ...line, status });
  }

  /** The line as `lock` would read it, synchronously (for assertions). */
  line(petId: number): StockLine | null {
    const line = this.lines.get(petId);
    return line ? { petId, ...line, openOrders: this.orders.openCount(petId) } : null;
  }

  snapshot(): () => void {
    const saved = new Map(this.lines);
    return () => {
      this.lines = saved;
    };
  }

  async createLine(petId: number): Promise<void> {
    if (this.lines.has(petId)) throw new Error(`stock line for pet ${petId} already exists`);
    this.lines.set(petId, { quantity: 0, status: 'available' });
  }

  async lock(petId: number): Promise<StockLine | null> {
    return this.line(petId);
  }

  async save(previous: StockLine, next: StockLine): Promise<void> {
    const line = this.lines.get(previous.petId);
    if (!line) throw new Error(`no stock line for pet ${previous.petId}`);
    const delta = next.quantity - previous.quantity;
    if (line.quantity + delta < 0) throw new InsufficientStockError(previous.petId, previous.quantity, -delta);
    this.lines.set(previous.petId, {
      quantity: line.quantity + delta,
      status: next.status !== previous.status ? next.status : line.status,
    });
  }

  async findItem(petId: number): Promise<InventoryItem | null> {
    const line = this.lines.get(petId);
    return line ? { petId, quantity: line.quantity, status: line.status } : null;
  }

  async findPage(
    statuses: readonly PetStatus[] | undefined,
    { limit, afterId }: PageRequest,
  ): Promise<Page<InventoryItem>> {
    const wanted = statuses?.length ? new Set(statuses) : null;
    const items = [...this.lines.entries()]
      .filter(([petId, line]) => (afterId === null || petId > afterId) && (wanted === null || wanted.has(line.status)))
      .sort(([a], [b]) => a - b)
      .map(([petId, line]) => ({ petId, quantity: line.quantity, status: line.status }));
    return toPage(items.slice(0, limit + 1), limit);
  }
}

/**
 * Idempotency-Key records in memory, keyed by (API key, key). `claim` takes a new
 * or expired key (returns null) or returns the live record; a record whose first
 * request never recorded an outcome is an error, as in the real adapter.
 */
export class InMemoryIdempotencyRepository implements IdempotencyRepository, Restorable {
  private rows = new Map<string, { requestHash: string; outcome: OrderOutcome | null; createdAt: Date }>();

  /** How many records exist (for assertions). */
  size(): number {
    return this.rows.size;
  }

  snapshot(): () => void {
    const saved = new Map(this.rows);
    return () => {
      this.rows = saved;
    };
  }

  async claim(ownerKeyId: number, key: string, requestHash: string, now: Date): Promise<IdempotencyRecord | null> {
    const id = rowId(ownerKeyId, key);
    const row = this.rows.get(id);
    if (!row || row.createdAt.getTime() < now.getTime() - IDEMPOTENCY_RETENTION_MS) {
      this.rows.set(id, { requestHash, outcome: null, createdAt: new Date(now.getTime()) });
      return null;
    }
    if (!row.outcome) throw new Error('idempotency record without outcome after its request ended');
    return { requestHash: row.requestHash, outcome: row.outcome };
  }

  async record(ownerKeyId: number, key: string, outcome: OrderOutcome): Promise<void> {
    const id = rowId(ownerKeyId, key);
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, outcome: structuredClone(outcome) });
  }

  async deleteExpired(now: Date): Promise<number> {
    let removed = 0;
    for (const [id, row] of this.rows) {
      if (row.createdAt.getTime() < now.getTime() - IDEMPOTENCY_RETENTION_MS) {
        this.rows.delete(id);
        removed++;
      }
    }
    return removed;
  }
}

/**
 * One unit of work at a time (as if every use case locked the same row), rolled
 * back by restoring the fakes' rows when `work` throws; a savepoint restores
 * only what its own work wrote.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  private queue: Promise<unknown> = Promise.resolve();
  /** How many units of work committed and rolled back (for assertions). */
  commits = 0;
  rollbacks = 0;

  constructor(
    private readonly tx: Omit<Transaction, 'savepoint'>,
    private readonly fakes: readonly Restorable[],
  ) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.transaction(work));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const rollback = this.checkpoint();
    const tx: Transaction = { ...this.tx, savepoint: (inner) => this.savepoint(inner) };
    try {
      const result = await work(tx);
      this.commits++;
      return result;
    } catch (error) {
      rollback();
      this.rollbacks++;
      throw error;
    }
  }

  private async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const rollback = this.checkpoint();
    try {
      return await work();
    } catch (error) {
      rollback();
      throw error;
    }
  }

  private checkpoint(): () => void {
    const restores = this.fakes.map((fake) => fake.snapshot());
    return () => restores.forEach((restore) => restore());
  }
}

/** The store's fakes wired together: orders, stock, idempotency records and their unit of work. */
export interface InMemoryStore {
  readonly pets: InMemoryPetRepository;
  readonly orders: InMemoryOrderRepository;
  readonly stock: InMemoryStockRepository;
  readonly idempotency: InMemoryIdempotencyRepository;
  readonly uow: InMemoryUnitOfWork;
}

export function createInMemoryStore(): InMemoryStore {
  const pets = new InMemoryPetRepository();
  const orders = new InMemoryOrderRepository();
  const stock = new InMemoryStockRepository(orders);
  const idempotency = new InMemoryIdempotencyRepository();
  const uow = new InMemoryUnitOfWork({ pets, stock, orders, idempotency }, [orders, stock, idempotency]);
  return { pets, orders, stock, idempotency, uow };
}

function rowId(ownerKeyId: number, key: string): string {
  return `${ownerKeyId}\u0000${key}`;
}

function copy(order: Order): Order {
  return Object.freeze({ ...order, shipDate: order.shipDate && new Date(order.shipDate.getTime()) });
}
