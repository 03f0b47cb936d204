import type { DataSource } from 'typeorm';
import { migrationTimestamp } from './migration-timestamps.js';

/** Migrations renamed after they shipped: former name → name (see `recordRenamedMigrations`). */
export type MigrationRenames = Readonly<Record<string, string>>;

/**
 * Applies the pending migrations, each in its own transaction, after recording the
 * renamed ones: a database that ran a migration under its former name has run it.
 * A schema that has them all (every start but a deploy's first) is found so in two
 * queries, not the dozen round trips of TypeORM's run and the renames' transaction.
 */
export async function runMigrations(dataSource: DataSource, renames: MigrationRenames = {}): Promise<void> {
  if (await everyMigrationRecorded(dataSource)) return;
  await recordRenamedMigrations(dataSource, renames);
  await dataSource.runMigrations({ transaction: 'each' });
}

/** Whether the migrations table exists and records every migration of `dataSource`. */
async function everyMigrationRecorded(dataSource: DataSource): Promise<boolean> {
  // Asked first, so that a fresh database's first start logs no error on the server.
  const [{ present }]: Array<{ present: boolean }> = await dataSource.query(
    `SELECT to_regclass($1) IS NOT NULL AS present`,
    [quotedMigrationsTable(dataSource)],
  );
  return present && (await unrecordedMigrations(dataSource)).length === 0;
}

/**
 * The names of `dataSource`'s migrations (the composition root's list) that its migrations
 * table does not record, in one query; it fails when the table does not exist.
 */
export async function unrecordedMigrations(dataSource: DataSource): Promise<string[]> {
  const names = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  const rows: Array<{ name: string }> = await dataSource.query(
    `SELECT name FROM ${quotedMigrationsTable(dataSource)} WHERE name = ANY($1::varchar[])`,
    [names],
  );
  const recorded = new Set(rows.map((row) => row.name));
  return names.filter((name) => !recorded.has(name));
}

/** The migrations table's name, quoted for SQL. */
function quotedMigrationsTable(dataSource: DataSource): string {
  return `"${(dataSource.options.migrationsTableName ?? 'migrations').replace(/"/g, '""')}"`;
}

/**
 * A migration that shipped under one name and was renamed (its timestamp ran ahead
 * of the clock, so a migration generated today sorted before it) is recorded under
 * its new name too, when the former one is recorded, so that it does not run
 * twice. The former row stays: an instance of the previous build, still serving
 * during a rolling deploy, finds the names it knows and stays ready.
 */
export async function recordRenamedMigrations(dataSource: DataSource, renames: MigrationRenames): Promise<void> {
  const entries = Object.entries(renames);
  if (entries.length === 0) return;
  const quoted = quotedMigrationsTable(dataSource);
  await dataSource.transaction(async (db) => {
    const [{ present }]: Array<{ present: boolean }> = await db.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [
      quoted,
    ]);
    if (!present) return;
    // Two instances starting at once record each rename once.
    await db.query(`LOCK TABLE ${quoted} IN SHARE ROW EXCLUSIVE MODE`);
    for (const [former, name] of entries) {
      await db.query(
        `INSERT INTO ${quoted} ("timestamp", "name")
         SELECT $3, $2::varchar
          WHERE EXISTS (SELECT 1 FROM ${quoted} WHERE "name" = $1)
            AND NOT EXISTS (SELECT 1 FROM ${quoted} WHERE "name" = $2)`,
        [former, name, requireTimestamp(name)],
      );
    }
  });
}

function requireTimestamp(name: string): number {
  const timestamp = migrationTimestamp(name);
  if (timestamp === null) throw new Error(`Migration name ${name} does not end with a 13-digit timestamp`);
  return timestamp;
}
