import { InsufficientStockError } from '../../src/inventory/domain/inventory.errors.js';
import type { InventoryLine } from '../../src/inventory/domain/inventory-line.js';
import type { InventoryItem, InventoryRepository } from '../../src/inventory/domain/inventory.repository.js';
import type { PetStatus } from '../../src/pets/domain/pet-status.js';
import { type Page, type PageRequest, toPage } from '../../src/shared/paging/page.js';
import { foreignKeyViolation, InMemoryTables, keysetRows, uniqueViolation } from './in-memory-tables.js';

/**
 * A faithful in-memory `InventoryRepository` over the shared tables: a line joins the
 * inventory entry, the pet's status and its open orders; `save` applies the
 * quantity as a delta guarded against going negative (`InsufficientStockError`)
 * and writes the status to the pet only when it changed. Locking is the unit of
 * work's business: the in-memory one runs transactions one at a time.
 */
export class InMemoryInventoryRepository implements InventoryRepository {
  constructor(readonly tables: InMemoryTables = new InMemoryTables()) {}

  async createLine(petId: number): Promise<void> {
    if (!this.tables.pets.has(petId)) throw foreignKeyViolation('FK_inventory_pet', `pet ${petId} does not exist`);
    if (this.tables.inventory.has(petId)) throw uniqueViolation('PK_inventory', `pet ${petId} already has a line`);
    this.tables.inventory.set(petId, 0);
  }

  /** Test set-up: the pet's units in stock, set directly (no store rules, no status change). */
  setQuantity(petId: number, quantity: number): void {
    if (!this.tables.pets.has(petId)) throw foreignKeyViolation('FK_inventory_pet', `pet ${petId} does not exist`);
    this.tables.inventory.set(petId, quantity);
  }

  /** The line as `lock` reads it, synchronously (for assertions). */
  line(petId: number): InventoryLine | null {
    const quantity = this.tables.inventory.get(petId);
    const pet = this.tables.pets.get(petId);
    if (quantity === undefined || !pet) return null;
    let openOrders = 0;
    for (const order of this.tables.orders.values()) if (order.petId === petId && !order.complete) openOrders++;
    return { petId, quantity, status: pet.status, openOrders };
  }

  async lock(petId: number): Promise<InventoryLine | null> {
    return this.line(petId);
  }

  async save(previous: InventoryLine, next: InventoryLine): Promise<void> {
    const delta = next.quantity - previous.quantity;
    if (delta !== 0) {
      const current = this.tables.inventory.get(previous.petId);
      if (current === undefined || current + delta < 0) {
        throw new InsufficientStockError(previous.petId, previous.quantity, -delta);
      }
      this.tables.inventory.set(previous.petId, current + delta);
    }
    const pet = this.tables.pets.get(previous.petId);
    if (next.status !== previous.status && pet) {
      this.tables.pets.set(pet.id, Object.freeze({ ...pet, status: next.status }));
    }
  }

  async findItem(petId: number): Promise<InventoryItem | null> {
    return this.item(petId);
  }

  async findPage(
    statuses: readonly PetStatus[] | undefined,
    { limit, afterId }: PageRequest,
  ): Promise<Page<InventoryItem>> {
    const wanted = statuses?.length ? new Set(statuses) : null;
    const items = [...this.tables.inventory.keys()]
      .map((petId) => this.item(petId))
      .filter((item): item is InventoryItem => item !== null && (wanted === null || wanted.has(item.status)));
    return toPage(
      keysetRows(items, (i) => i.petId, afterId, limit),
      limit,
    );
  }

  private item(petId: number): InventoryItem | null {
    const quantity = this.tables.inventory.get(petId);
    const pet = this.tables.pets.get(petId);
    return quantity === undefined || !pet ? null : { petId, quantity, status: pet.status };
  }
}
