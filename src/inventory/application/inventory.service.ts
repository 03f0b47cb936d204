import { Inject, Injectable, Optional } from '@nestjs/common';
import { PetNotFoundError, type PetStatus } from '../../pets/index.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { CLOCK, type Clock, systemClock } from '../../shared/clock.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { stockLineEvents } from '../domain/stock.events.js';
import { restock } from '../domain/stock-line.js';
import { type InventoryItem, STOCK_REPOSITORY, type StockRepository } from '../domain/stock.repository.js';

/** Use cases for inventory: reading stock and setting it (restock). */
@Injectable()
export class InventoryService {
  constructor(
    @Inject(STOCK_REPOSITORY) private readonly stock: StockRepository,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  list(statuses: readonly PetStatus[] | undefined, page: PageRequest): Promise<Page<InventoryItem>> {
    return this.stock.findPage(statuses, page);
  }

  async get(petId: number): Promise<InventoryItem> {
    const item = await this.stock.findItem(petId);
    if (!item) throw new PetNotFoundError(petId);
    return item;
  }

  /** `actorKeyId`: the key making the change, named in the events it causes. */
  async setQuantity(petId: number, quantity: number, actorKeyId: number | null = null): Promise<InventoryItem> {
    return this.uow.run(async (tx) => {
      const line = await this.stock.lock(petId, tx);
      if (!line) throw new PetNotFoundError(petId);
      const next = restock(line, quantity);
      await this.stock.save(line, next, tx);
      for (const event of stockLineEvents(line, next, actorKeyId, this.clock())) tx.record(event);
      return { petId, quantity: next.quantity, status: next.status };
    });
  }
}
