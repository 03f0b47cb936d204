/** The database boundary: what modules and the composition root use of src/database (README.md says what each is for). */
export { managerOf } from './typeorm-transaction.js';
export { TRANSACTIONS_AT_ONCE, TypeOrmUnitOfWork } from './typeorm-unit-of-work.js';
export { DatabaseModule } from './database.module.js';
export { buildDataSourceOptions, DATABASE_LIMITS, type DatabaseSchema, poolOf } from './data-source-options.js';
export { fromInt8, toInt8 } from './int8.js';
export { type MigrationRenames, runMigrations, unrecordedMigrations } from './run-migrations.js';
export {
  PG_FOREIGN_KEY_VIOLATION,
  PG_RESTRICT_VIOLATION,
  PG_UNIQUE_VIOLATION,
  violatedConstraint,
} from './pg-errors.js';
