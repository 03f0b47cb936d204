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
const PETS: ReadonlyArray<readonly [name: string, category: string, status: string]> = [
  ['Rex', 'Dogs', 'available'],
  ['Bella', 'Dogs', 'available'],
  ['Luna', 'Cats', 'available'],
  ['Milo', 'Cats', 'pending'],
  ['Kiwi', 'Birds', 'available'],
  ['Polly', 'Birds', 'sold'],
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
      for (const [name, category, status] of PETS) {
        await tx.query(
          'INSERT INTO pets (name, category_id, status) SELECT $1, id, $3 FROM categories WHERE name = $2',
          [name, category, status],
        );
      }
      return true;
    });
    if (seeded) this.logger.log(`Loaded the demo catalogue: ${CATEGORIES.length} categories, ${PETS.length} pets`);
  }
}
