import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { HEALTH_CHECK_TIMEOUT_MS } from './health-limits.js';

/** Starts the message of a database that answers but lacks migrations (a deploy ahead of its schema). */
export const MIGRATIONS_PENDING = 'migrations not applied';

/**
 * PostgreSQL answers and has every migration this build knows: one query, which
 * finds which of the code's migrations the migrations table records.
 */
@Injectable()
export class DatabaseHealth {
  /** The names of the migrations this build runs (the composition root's list, as the connection has it). */
  private readonly expected: string[];

  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly dataSource: DataSource,
  ) {
    this.expected = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  }

  check<const Key extends string>(key: Key) {
    const table = this.dataSource.options.migrationsTableName ?? 'migrations';
    return this.indicator
      .check(key)
      .attempt(async () => {
        const rows: Array<{ name: string }> = await this.dataSource.query(
          `SELECT name FROM "${table.replace(/"/g, '""')}" WHERE name = ANY($1::varchar[])`,
          [this.expected],
        );
        const applied = new Set(rows.map((row) => row.name));
        const missing = this.expected.filter((name) => !applied.has(name));
        if (missing.length > 0) throw new Error(`${MIGRATIONS_PENDING}: ${missing.join(', ')}`);
        return { migrations: this.expected.length };
      })
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }
}
