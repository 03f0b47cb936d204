import { DataSource } from 'typeorm';
import { SCHEMA } from '../app.schema.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { resolveDatabaseUrl } from '../database/database-url.js';

/** For the TypeORM CLI (`npm run migration:generate` / `migration:run`): every module's entities and migrations. */
const { url } = await resolveDatabaseUrl(process.env);
export default new DataSource(buildDataSourceOptions(url, SCHEMA));
