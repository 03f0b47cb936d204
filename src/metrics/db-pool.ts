import type { DataSource } from 'typeorm';
import { poolOf } from '../database/index.js';

/** What the PostgreSQL pool reports about its connections. */
export interface PoolStats {
  /** Connections open (in use + idle). */
  readonly total: number;
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
}

/** The counts of the pg `Pool` behind TypeORM's DataSource, or null while there is none (not connected, or closed). */
export function readPoolStats(dataSource: DataSource): PoolStats | null {
  const pool = dataSource.isInitialized ? poolOf(dataSource) : null;
  if (!pool) return null;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
