import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { appConfig } from '../config/app.config.js';

// Serialises seeding across instances starting together on one database.
const SEED_LOCK = 7_301_002;

const CATEGORIES: ReadonlyArray<readonly [name: string, description: string]> = [
  ['Dogs', 'Loyal companions of every size'],
  ['Cats', 'Independent and affectionate'],
  ['Birds', 'Songbirds and parrots'],
];
const PETS: ReadonlyArray<readonly [name: string, category: string, status: string, stock: number]> = [
  ['Rex', 'Dogs', 'available', 5],
  ['Bella', 'Dogs', 'available', 3],
  ['Luna', 'Cats', 'available', 2],
  ['Milo', 'Cats', 'pending', 0],
  ['Kiwi', 'Birds', 'available', 10],
  ['Polly', 'Birds', 'sold', 0],
];

/** On an empty catalogue, loads a few categories and pets so a newcomer sees data (SEED_DEMO_DATA=false turns it off). */
@Injectable()
export class DemoCatalogue implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoCatalogue');

  constructor(
    private readonly db: DataSource,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.seedDemoData) return;
    const seeded = await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
      const [{ empty }] = (await tx.query('SELECT NOT EXISTS (SELECT 1 FROM categories) AS empty')) as [
        { empty: boolean },
      ];
      if (!empty) return false;
      for (const [name, description] of CATEGORIES) {
        await tx.query('INSERT INTO categories (name, description) VALUES ($1, $2)', [name, description]);
      }
      for (const [name, category, status, stock] of PETS) {
        await tx.query(
          `WITH pet AS (INSERT INTO pets (name, category_id, status) SELECT $1, id, $3 FROM categories WHERE name = $2 RETURNING id)
           INSERT INTO inventory (pet_id, quantity) SELECT id, $4 FROM pet`,
          [name, category, status, stock],
        );
      }
      return true;
    });
    if (seeded) this.logger.log(`Loaded the demo catalogue: ${CATEGORIES.length} categories, ${PETS.length} pets`);
  }
}
