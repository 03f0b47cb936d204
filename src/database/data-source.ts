import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options.js';
import { resolveDatabaseUrl } from './database-url.js';

/** For the TypeORM CLI (`npm run migration:generate` / `migration:run`). */
const { url } = await resolveDatabaseUrl(process.env);
export default new DataSource({ ...buildDataSourceOptions(url), migrationsRun: false });
