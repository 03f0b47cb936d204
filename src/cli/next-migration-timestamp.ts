import { SCHEMA } from '../app.schema.js';
import { latestMigrationTimestamp } from '../database/migration-timestamps.js';

/**
 * Prints the timestamp for a new migration (`npm run migration:generate` and
 * `migration:create` pass it to the TypeORM CLI): now, or one millisecond after the
 * latest migration of the schema if that is later, so the new one always runs last.
 */
console.log(Math.max(Date.now(), latestMigrationTimestamp(SCHEMA.migrations) + 1));
