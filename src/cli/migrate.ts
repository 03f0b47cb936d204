import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { SCHEMA } from '../app.schema.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { resolveDatabaseUrl } from '../database/database-url.js';
import { runMigrations } from '../database/run-migrations.js';

/** `npm run migration:run`: applies the pending migrations as the service does at start-up, then exits. */
const database = await resolveDatabaseUrl(process.env);
const dataSource = await new DataSource(buildDataSourceOptions(database.url, SCHEMA)).initialize();
try {
  await runMigrations(dataSource, SCHEMA.renamedMigrations);
} finally {
  await dataSource.destroy();
  await database.stop();
}
