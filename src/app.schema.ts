import { API_KEY_ENTITIES, API_KEY_MIGRATIONS } from './api-keys/index.js';
import { AUDIT_ENTITIES, AUDIT_MIGRATIONS } from './audit/index.js';
import { CATEGORY_ENTITIES } from './categories/index.js';
import type { DatabaseSchema } from './database/data-source-options.js';
import { CORE_MIGRATIONS } from './database/migrations/index.js';
import { INVENTORY_ENTITIES } from './inventory/index.js';
import { ORDER_ENTITIES, ORDER_MIGRATIONS } from './orders/index.js';
import { PET_ENTITIES } from './pets/index.js';
import { WEBHOOK_MIGRATION_RENAMES, WEBHOOK_MIGRATIONS } from './webhooks/index.js';

/**
 * The database schema of the composed application: each module's entities (the
 * app auto-loads them from the modules; the TypeORM CLI needs them listed) and
 * the migrations, in order. A module brought in adds its own here.
 */
export const SCHEMA: Required<DatabaseSchema> = {
  entities: [
    ...CATEGORY_ENTITIES,
    ...PET_ENTITIES,
    ...API_KEY_ENTITIES,
    ...INVENTORY_ENTITIES,
    ...ORDER_ENTITIES,
    ...AUDIT_ENTITIES,
  ],
  migrations: [
    ...CORE_MIGRATIONS,
    ...API_KEY_MIGRATIONS,
    ...WEBHOOK_MIGRATIONS,
    ...ORDER_MIGRATIONS,
    ...AUDIT_MIGRATIONS,
  ],
  renamedMigrations: { ...WEBHOOK_MIGRATION_RENAMES },
};
