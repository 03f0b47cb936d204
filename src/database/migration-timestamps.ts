import type { DatabaseSchema } from './data-source-options.js';

/** The timestamp TypeORM reads from a migration's name (its last 13 digits), or null without one. */
export function migrationTimestamp(name: string): number | null {
  const digits = /(\d{13})$/.exec(name);
  return digits ? Number(digits[1]) : null;
}

/** The name TypeORM records for a migration class: its `name` property, else the class name. */
export function migrationName(migration: DatabaseSchema['migrations'][number]): string {
  return new migration().name ?? migration.name;
}

/** The latest timestamp among `migrations` (0 for none). */
export function latestMigrationTimestamp(migrations: DatabaseSchema['migrations']): number {
  return Math.max(0, ...migrations.map((migration) => migrationTimestamp(migrationName(migration)) ?? 0));
}
