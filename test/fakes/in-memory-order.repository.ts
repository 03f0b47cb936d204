import type { NewOrder, Order } from '../../src/orders/domain/order.js';
import type {
  OrderFilter,
  OrderRepository,
  PlacementPublishing,
  PlacementResult,
} from '../../src/orders/domain/order.repository.js';
import { IDEMPOTENCY_RETENTION_MS, type OrderOutcome } from '../../src/orders/domain/idempotency.js';
import { type Page, type PageRequest, toPage } from '../../src/shared/paging/page.js';
import { foreignKeyViolation, idempotencyKey, InMemoryTables, keysetRows } from './in-memory-tables.js';

/**
 * A faithful in-memory `OrderRepository` over the shared tables: ids from a
 * sequence, keyset pages with the `petId`/`complete`/`ownerKeyId` filters, and
 * `completeIfOpen`/`deleteIfOpen` acting only on open orders, each in one step.
 */
export class InMemoryOrderRepository implements OrderRepository {
  /** The placements in progress, one after the other. */
  private statements: Promise<unknown> = Promise.resolve();

  constructor(readonly tables: InMemoryTables = new InMemoryTables()) {}

  /** Every stored order, ascending by id (for assertions). */
  all(): Order[] {
    return [...this.tables.orders.values()].sort((a, b) => a.id - b.id);
  }

  async findById(id: number): Promise<Order | null> {
    return this.tables.orders.get(id) ?? null;
  }

  async findPage(filter: OrderFilter, { limit, afterId }: PageRequest): Promise<Page<Order>> {
    const matching = [...this.tables.orders.values()].filter(
      (order) =>
        (filter.petId === undefined || order.petId === filter.petId) &&
        (filter.complete === undefined || order.complete === filter.complete) &&
        (filter.ownerKeyId === undefined || order.ownerKeyId === filter.ownerKeyId),
    );
    return toPage(
      keysetRows(matching, (o) => o.id, afterId, limit),
      limit,
    );
  }

  async create(order: NewOrder, ownerKeyId: number): Promise<Order> {
    if (!this.tables.pets.has(order.petId)) {
      throw foreignKeyViolation('FK_orders_pet', `pet ${order.petId} does not exist`);
    }
    const created: Order = Object.freeze({
      id: this.tables.nextId('orders'),
      petId: order.petId,
      quantity: order.quantity,
      shipDate: order.shipDate ?? null,
      complete: false,
      ownerKeyId,
    });
    this.tables.orders.set(created.id, created);
    return created;
  }

  /**
   * As the SQL adapter's one statement (`orders_place`), all of it or, when any part
   * fails, none of it, one at a time (a concurrent one with the same key waits, as on
   * the key's row): claim the Idempotency-Key (or return the record an earlier
   * request left), check the rule on the line as stored, then take, mark,
   * insert and store the outcome (the events' outbox rows have no table here).
   */
  placeFromStock(order: NewOrder, ownerKeyId: number, publish: PlacementPublishing): Promise<PlacementResult> {
    const placed = this.statements.then(async () => {
      const undo = this.tables.snapshot();
      try {
        return await this.placeAll(order, ownerKeyId, publish);
      } catch (error) {
        undo();
        throw error;
      }
    });
    this.statements = placed.catch(() => undefined);
    return placed;
  }

  private async placeAll(
    order: NewOrder,
    ownerKeyId: number,
    { occurredAt, idempotency }: PlacementPublishing,
  ): Promise<PlacementResult> {
    const id = idempotency && idempotencyKey(ownerKeyId, idempotency.key);
    if (id && idempotency) {
      const existing = this.tables.idempotency.get(id);
      if (existing && existing.createdAt.getTime() >= occurredAt.getTime() - IDEMPOTENCY_RETENTION_MS) {
        if (!existing.outcome) throw new Error('idempotency record without outcome after its request ended');
        return {
          kind: 'replay',
          record: { requestHash: existing.requestHash, outcome: structuredClone(existing.outcome) },
        };
      }
      this.tables.idempotency.set(id, { requestHash: idempotency.requestHash, outcome: null, createdAt: occurredAt });
    }
    const result = await this.tryLine(order, ownerKeyId);
    if (id) {
      const outcome: OrderOutcome = result.order
        ? { kind: 'placed', order: result.order }
        : {
            kind: 'refusedOn',
            line: result.before && { quantity: result.before.quantity, status: result.before.status },
          };
      const claimed = this.tables.idempotency.get(id);
      if (claimed) this.tables.idempotency.set(id, Object.freeze({ ...claimed, outcome }));
    }
    return result;
  }

  private async tryLine(order: NewOrder, ownerKeyId: number): Promise<PlacementResult & { kind: 'tried' }> {
    const quantity = this.tables.inventory.get(order.petId);
    const pet = this.tables.pets.get(order.petId);
    if (quantity === undefined || !pet) return { kind: 'tried', before: null, order: null };
    const before = { petId: order.petId, quantity, status: pet.status };
    if (pet.status !== 'available' || quantity < order.quantity) return { kind: 'tried', before, order: null };
    const left = quantity - order.quantity;
    this.tables.inventory.set(order.petId, left);
    if (left === 0) this.tables.pets.set(pet.id, Object.freeze({ ...pet, status: 'pending' as const }));
    return { kind: 'tried', before, order: await this.create(order, ownerKeyId) };
  }

  async completeIfOpen(id: number, shipDate: Date): Promise<Order | null> {
    const order = this.tables.orders.get(id);
    if (!order || order.complete) return null;
    const completed: Order = Object.freeze({ ...order, complete: true, shipDate });
    this.tables.orders.set(id, completed);
    return completed;
  }

  async deleteIfOpen(id: number): Promise<Order | null> {
    const order = this.tables.orders.get(id);
    if (!order || order.complete) return null;
    this.tables.orders.delete(id);
    return order;
  }

  async existsForPet(petId: number): Promise<boolean> {
    return [...this.tables.orders.values()].some((order) => order.petId === petId);
  }
}
