import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { CategoriesService } from '../categories/index.js';
import { appConfig } from '../config/app.config.js';
import { InventoryService } from '../inventory/index.js';
import { type PetStatus, PetsService } from '../pets/index.js';

// Serialises seeding across instances starting together on one database.
const SEED_LOCK = 7_301_002;

const CATEGORIES: ReadonlyArray<readonly [name: string, description: string]> = [
  ['Dogs', 'Loyal companions of every size'],
  ['Cats', 'Independent and affectionate'],
  ['Birds', 'Songbirds and parrots'],
];
const PETS: ReadonlyArray<readonly [name: string, category: string, status: PetStatus, stock: number]> = [
  ['Rex', 'Dogs', 'available', 5],
  ['Bella', 'Dogs', 'available', 3],
  ['Luna', 'Cats', 'available', 2],
  ['Milo', 'Cats', 'pending', 0],
  ['Kiwi', 'Birds', 'available', 10],
  ['Polly', 'Birds', 'sold', 0],
];

/**
 * On an empty catalogue, loads a few categories and pets so a newcomer sees data
 * (SEED_DEMO_DATA=false turns it off). Written through the use cases, like any
 * client's data, so it obeys every rule; a session advisory lock keeps instances
 * starting together from loading it twice.
 */
@Injectable()
export class DemoCatalogue implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoCatalogue');

  constructor(
    private readonly db: DataSource,
    private readonly categories: CategoriesService,
    private readonly pets: PetsService,
    private readonly inventory: InventoryService,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.seedDemoData) return;
    const lock = this.db.createQueryRunner();
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [SEED_LOCK]);
      if (await this.load()) {
        this.logger.log(`Loaded the demo catalogue: ${CATEGORIES.length} categories, ${PETS.length} pets`);
      }
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [SEED_LOCK]).catch(() => undefined);
      await lock.release();
    }
  }

  private async load(): Promise<boolean> {
    if ((await this.categories.list({ limit: 1, afterId: null })).items.length > 0) return false;
    const ids = new Map<string, number>();
    for (const [name, description] of CATEGORIES)
      ids.set(name, (await this.categories.create({ name, description })).id);
    for (const [name, category, status, stock] of PETS) {
      const pet = await this.pets.create({ name, categoryId: ids.get(category) ?? 0, status });
      if (stock > 0) await this.inventory.setQuantity(pet.id, stock);
    }
    return true;
  }
}
