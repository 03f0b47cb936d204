import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { unrecordedMigrations } from '../database/index.js';
import { HEALTH_CHECK_TIMEOUT_MS } from './health-limits.js';

/** Starts the message of a database that answers but lacks migrations (a deploy ahead of its schema). */
export const MIGRATIONS_PENDING = 'migrations not applied';

/**
 * PostgreSQL answers and has every migration this build knows: one query, which
 * finds which of the code's migrations the migrations table records.
 */
@Injectable()
export class DatabaseHealth {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly dataSource: DataSource,
  ) {}

  check<const Key extends string>(key: Key) {
    return this.indicator
      .check(key)
      .attempt(async () => {
        const missing = await unrecordedMigrations(this.dataSource);
        if (missing.length > 0) throw new Error(`${MIGRATIONS_PENDING}: ${missing.join(', ')}`);
        return { migrations: this.dataSource.migrations.length };
      })
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }
}
