import { DataSource } from 'typeorm';
import { SCHEMA } from '../src/app.schema.js';
import { buildDataSourceOptions, runMigrations } from '../src/database/index.js';
import { migrationName, migrationTimestamp } from '../src/database/migration-timestamps.js';
import { recreateDatabase } from './support/spawn-service.mjs';

/** A database of this suite's own on the test server, migrated from nothing. */
async function freshlyMigrated(name: string): Promise<DataSource> {
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  await recreateDatabase(url.toString());
  const options = { ...buildDataSourceOptions(url.toString(), SCHEMA), logging: ['error' as const] };
  const dataSource = await new DataSource(options).initialize();
  await runMigrations(dataSource, SCHEMA.renamedMigrations);
  return dataSource;
}

describe('migrations', () => {
  let db: DataSource | undefined;

  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it('leave the schema exactly as the entities describe it: migration:generate would find nothing to write', async () => {
    db = await freshlyMigrated('petstore_schema_drift');
    const pending = await db.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('on a schema that has every migration, ask two questions and change nothing (a start after the first)', async () => {
    db = await freshlyMigrated('petstore_migrated_start');
    const before: Array<{ count: number }> = await db.query(`SELECT count(*)::int AS count FROM migrations`);
    const statements: string[] = [];
    const logger = {
      logQuery: (query: string) => void statements.push(query),
      logQueryError: () => undefined,
      logQuerySlow: () => undefined,
      logSchemaBuild: () => undefined,
      logMigration: () => undefined,
      log: () => undefined,
    };
    db.setOptions({ logging: ['query'], logger });

    await runMigrations(db, SCHEMA.renamedMigrations);

    expect(statements).toHaveLength(2);
    expect(statements.join('\n')).not.toMatch(/information_schema|INSERT|BEGIN/i);
    expect(await db.query(`SELECT count(*)::int AS count FROM migrations`)).toEqual(before);
  });

  it('run a migration renamed after it shipped once: a database that ran it under its former name keeps it', async () => {
    db = await freshlyMigrated('petstore_renamed_migrations');
    const renames = Object.entries(SCHEMA.renamedMigrations);
    expect(renames.length).toBeGreaterThan(0);
    // The database as the build before the rename left it: only the former names recorded.
    for (const [former, name] of renames) {
      await db.query(`UPDATE migrations SET name = $1, timestamp = $2 WHERE name = $3`, [
        former,
        migrationTimestamp(former),
        name,
      ]);
    }

    // Running them again would fail (their columns exist already): none runs.
    await runMigrations(db, SCHEMA.renamedMigrations);
    await runMigrations(db, SCHEMA.renamedMigrations);

    const recorded: Array<{ name: string }> = await db.query(`SELECT name FROM migrations ORDER BY id`);
    const names = recorded.map((row) => row.name);
    for (const [former, name] of renames) {
      expect(names.filter((n) => n === name)).toHaveLength(1);
      expect(names).toContain(former); // the previous build, still serving in a rolling deploy, stays ready
    }
    expect(await db.showMigrations()).toBe(false);
    expect(SCHEMA.migrations.map(migrationName).every((name) => names.includes(name))).toBe(true);
  });
});
