import type { NewOrder, Order } from '../../src/orders/domain/order.js';
import type {
  OrderFilter,
  OrderRepository,
  PlacementPublishing,
  StockPlacement,
} from '../../src/orders/domain/order.repository.js';
import { type Page, type PageRequest, toPage } from '../../src/shared/paging/page.js';
import { foreignKeyViolation, idempotencyKey, InMemoryTables, keysetRows } from './in-memory-tables.js';

/**
 * A faithful in-memory `OrderRepository` over the shared tables: ids from a
 * sequence, keyset pages with the `petId`/`complete`/`ownerKeyId` filters, and
 * `completeIfOpen`/`deleteIfOpen` acting only on open orders, each in one step.
 */
export class InMemoryOrderRepository implements OrderRepository {
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
   * As the SQL adapter's one statement: the rule checked on the line as stored, then
   * take, mark, insert and store the placed outcome under the Idempotency-Key (the
   * events' outbox rows have no table here).
   */
  async placeFromStock(
    order: NewOrder,
    ownerKeyId: number,
    publish: PlacementPublishing,
  ): Promise<StockPlacement | null> {
    // One statement: all of it or, when any part fails, none of it (in a transaction or not).
    const undo = this.tables.snapshot();
    try {
      return await this.placeAll(order, ownerKeyId, publish);
    } catch (error) {
      undo();
      throw error;
    }
  }

  private async placeAll(
    order: NewOrder,
    ownerKeyId: number,
    publish: PlacementPublishing,
  ): Promise<StockPlacement | null> {
    const quantity = this.tables.inventory.get(order.petId);
    const pet = this.tables.pets.get(order.petId);
    if (quantity === undefined || !pet) return null;
    const before = { petId: order.petId, quantity, status: pet.status };
    if (pet.status !== 'available' || quantity < order.quantity) return { before, order: null };
    const left = quantity - order.quantity;
    this.tables.inventory.set(order.petId, left);
    if (left === 0) this.tables.pets.set(pet.id, Object.freeze({ ...pet, status: 'pending' as const }));
    const placed = await this.create(order, ownerKeyId);
    if (publish.idempotencyKey !== undefined) {
      const id = idempotencyKey(ownerKeyId, publish.idempotencyKey);
      const claimed = this.tables.idempotency.get(id);
      if (claimed)
        this.tables.idempotency.set(
          id,
          Object.freeze({ ...claimed, outcome: { kind: 'placed' as const, order: placed } }),
        );
    }
    return { before, order: placed };
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
