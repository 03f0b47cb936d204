import { Injectable, Optional } from '@nestjs/common';
import { PetNotFoundError, type PetStatus } from '../../pets/index.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { Clock, systemClock } from '../../shared/clock.js';
import { type Transaction, UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { inventoryLineEvents } from '../domain/inventory.events.js';
import { type InventoryLine, type LineChange, restock } from '../domain/inventory-line.js';
import { type InventoryItem, InventoryRepository } from '../domain/inventory.repository.js';

/**
 * Use cases for inventory: reading stock, setting it (restock), and changing a
 * pet's stock and status inside another module's unit of work (`changeLine`).
 */
@Injectable()
export class InventoryService {
  constructor(
    private readonly lines: InventoryRepository,
    private readonly uow: UnitOfWork,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  list(statuses: readonly PetStatus[] | undefined, page: PageRequest): Promise<Page<InventoryItem>> {
    return this.lines.findPage(statuses, page);
  }

  async get(petId: number): Promise<InventoryItem> {
    const item = await this.lines.findItem(petId);
    if (!item) throw new PetNotFoundError(petId);
    return item;
  }

  /** `actorKeyId`: the key making the change, named in the events it causes. */
  async setQuantity(petId: number, quantity: number, actorKeyId: number | null = null): Promise<InventoryItem> {
    const next = await this.uow.run((tx) => this.changeLine(tx, petId, (line) => restock(line, quantity), actorKeyId));
    return { petId, quantity: next.quantity, status: next.status };
  }

  /**
   * Changes a pet's stock and status in the caller's open unit of work (a use case
   * or subscriber of another module): locks the pet's inventory line, as every
   * store use case does first, applies `change` to it, writes the result (stock as
   * one guarded statement that never goes negative: 409 `INSUFFICIENT_STOCK`) and
   * records `InventoryChanged` and `PetStatusChanged` as they apply. Returns the
   * line as written. 404 `PET_NOT_FOUND` (422 in a body's context is the caller's
   * to choose) when the pet does not exist.
   */
  async changeLine(
    tx: Transaction,
    petId: number,
    change: (line: InventoryLine) => LineChange,
    actorKeyId: number | null = null,
  ): Promise<InventoryLine> {
    const line = await this.lines.lock(petId, tx);
    if (!line) throw new PetNotFoundError(petId);
    const next = { ...line, ...change(line), petId: line.petId, openOrders: line.openOrders };
    await this.lines.save(line, next, tx);
    for (const event of inventoryLineEvents(line, next, actorKeyId, this.clock.now())) tx.record(event);
    return next;
  }
}
