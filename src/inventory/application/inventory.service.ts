import { Inject, Injectable } from '@nestjs/common';
import { PetNotFoundError } from '../../pets/domain/pet.errors.js';
import type { PetStatus } from '../../pets/domain/pet-status.js';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { restock } from '../domain/stock-line.js';
import { type InventoryItem, STOCK_REPOSITORY, type StockRepository } from '../domain/stock.repository.js';

/** Use cases for inventory: reading stock and setting it (restock). */
@Injectable()
export class InventoryService {
  constructor(
    @Inject(STOCK_REPOSITORY) private readonly stock: StockRepository,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
  ) {}

  list(statuses: readonly PetStatus[] | undefined, page: PageRequest): Promise<Page<InventoryItem>> {
    return this.stock.findPage(statuses, page);
  }

  async get(petId: number): Promise<InventoryItem> {
    const item = await this.stock.findItem(petId);
    if (!item) throw new PetNotFoundError(petId);
    return item;
  }

  async setQuantity(petId: number, quantity: number): Promise<InventoryItem> {
    return this.uow.run(async (tx) => {
      const line = await tx.stock.lock(petId);
      if (!line) throw new PetNotFoundError(petId);
      const next = restock(line, quantity);
      await tx.stock.save(line, next);
      return { petId, quantity: next.quantity, status: next.status };
    });
  }
}
