import { SCHEMA } from './app.schema.js';
import { migrationName, migrationTimestamp } from './database/migration-timestamps.js';

describe('the schema of the composed application', () => {
  const names = SCHEMA.migrations.map(migrationName);

  it('names every migration after the moment it was written, never later than now', () => {
    const now = Date.now();
    for (const name of names) {
      const timestamp = migrationTimestamp(name);
      expect({ name, valid: timestamp !== null && timestamp <= now }).toEqual({ name, valid: true });
    }
  });

  it('names each migration once, with its class named as TypeORM records it', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const migration of SCHEMA.migrations) expect(migrationName(migration)).toBe(migration.name);
  });

  it('renames only to migrations it runs, from names it no longer runs', () => {
    for (const [former, name] of Object.entries(SCHEMA.renamedMigrations)) {
      expect(names).toContain(name);
      expect(names).not.toContain(former);
      expect(migrationTimestamp(former)).not.toBeNull();
    }
  });
});
