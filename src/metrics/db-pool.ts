import type { DataSource } from 'typeorm';

/** What the PostgreSQL pool reports about its connections. */
export interface PoolStats {
  /** Connections open (in use + idle). */
  readonly total: number;
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
}

interface PgPoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

function isPgPool(value: unknown): value is PgPoolCounts {
  if (typeof value !== 'object' || value === null) return false;
  const pool = value as Record<string, unknown>;
  return ['totalCount', 'idleCount', 'waitingCount'].every((name) => typeof pool[name] === 'number');
}

/**
 * The counts of the pg `Pool` behind TypeORM's DataSource (its PostgreSQL driver
 * keeps it as `master`), or null while there is none (not connected, or closed).
 */
export function readPoolStats(dataSource: DataSource): PoolStats | null {
  const pool: unknown = (dataSource.driver as { master?: unknown }).master;
  if (!isPgPool(pool)) return null;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
