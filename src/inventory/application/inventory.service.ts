import { Injectable, Optional } from '@nestjs/common';
import { PetNotFoundError, type PetStatus } from '../../pets/index.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { Clock, systemClock } from '../../shared/clock.js';
import { UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { inventoryLineEvents } from '../domain/inventory.events.js';
import { restock } from '../domain/inventory-line.js';
import { type InventoryItem, InventoryRepository } from '../domain/inventory.repository.js';

/** Use cases for inventory: reading stock and setting it (restock). */
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
    return this.uow.run(async (tx) => {
      const line = await this.lines.lock(petId, tx);
      if (!line) throw new PetNotFoundError(petId);
      const next = restock(line, quantity);
      await this.lines.save(line, next, tx);
      for (const event of inventoryLineEvents(line, next, actorKeyId, this.clock.now())) tx.record(event);
      return { petId, quantity: next.quantity, status: next.status };
    });
  }
}
