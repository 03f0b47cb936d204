import type { DataSourceOptions } from 'typeorm';
import { ApiKeyOrmEntity } from '../api-keys/infrastructure/api-key.orm-entity.js';
import { InventoryOrmEntity } from '../inventory/infrastructure/inventory.orm-entity.js';
import { IdempotencyKeyOrmEntity } from '../orders/infrastructure/idempotency-key.orm-entity.js';
import { OrderOrmEntity } from '../orders/infrastructure/order.orm-entity.js';
import { CategoryOrmEntity } from '../categories/infrastructure/category.orm-entity.js';
import { PetOrmEntity } from '../pets/infrastructure/pet.orm-entity.js';
import { InitialSchema1763712000000 } from './migrations/1763712000000-initial-schema.js';
import { Store1763798400000 } from './migrations/1763798400000-store.js';

/** Every entity and migration, listed explicitly (no globs: they break under bundling and ESM). */
export const ENTITIES = [
  CategoryOrmEntity,
  PetOrmEntity,
  ApiKeyOrmEntity,
  InventoryOrmEntity,
  OrderOrmEntity,
  IdempotencyKeyOrmEntity,
];
export const MIGRATIONS = [InitialSchema1763712000000, Store1763798400000];

/**
 * The one builder of connection options, used by the Nest app and the TypeORM CLI.
 * Schema changes only through migrations, applied at start-up; never synchronize.
 */
export function buildDataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    extra: {
      max: 10,
      connectionTimeoutMillis: 2_000,
      statement_timeout: 5_000,
      idle_in_transaction_session_timeout: 10_000,
      application_name: 'petstore-api',
    },
  };
}
