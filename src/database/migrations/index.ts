import { InitialSchema1763712000000 } from './1763712000000-initial-schema.js';
import { Store1763798400000 } from './1763798400000-store.js';

/**
 * The schema's first migrations, written before modules brought their own: they
 * create the tables of pets, categories, API keys, inventory, orders and
 * idempotency keys as raw SQL (no module imported). A module added since keeps
 * its migrations in its own folder and lists them in the composition root.
 */
export const CORE_MIGRATIONS = [InitialSchema1763712000000, Store1763798400000];
