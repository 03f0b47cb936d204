import pg from 'pg';
import type { DataSourceOptions, MigrationInterface } from 'typeorm';
import { AdmissionPool } from './admission-pool.js';
import { NestTypeOrmLogger, SLOW_QUERY_MS } from './typeorm-logger.js';
import { failUnansweredQueries } from './unanswered-queries.js';

/** What a composition root hands the connection: the modules' entities (when not auto-loaded) and migrations. */
export interface DatabaseSchema {
  readonly entities?: DataSourceOptions['entities'];
  /** In the order they run. */
  readonly migrations: ReadonlyArray<new () => MigrationInterface>;
}

/**
 * Connection limits and timeouts, chosen so that a database outage answers 503
 * within 2 s while bursts of store traffic still queue rather than fail.
 *
 * - `POOL_MAX`: at most 10 connections per instance (2 replicas: 20, far below
 *   PostgreSQL's default 100).
 * - `POOL_WAIT_MS`: how long a request may wait for a free connection. pg-pool
 *   applies its `connectionTimeoutMillis` to this wait *and* to opening a
 *   connection. The store concurrency tests put 300–500 orders for one pet on one
 *   row lock behind these 10 connections, so the last of them waits about as long
 *   as the whole burst: measured 0.9–1.7 s for 500 orders (2 CPUs, embedded and
 *   machine PostgreSQL, with other work running). A 2 s wait (the earlier setting)
 *   leaves almost no headroom; 5 s leaves ~3×. An outage does not fill this queue:
 *   refused connections fail at once. A larger pool would mostly add waiters on
 *   the same row lock.
 * - `POOL_MAX_WAITING`: how many requests may wait for a connection at once. One
 *   more is shed at once with 503 `OVERLOADED` (and a wait that runs out is said
 *   the same way), so that overload is answered early and as overload, not as a
 *   database outage after a long queue. Twice the largest burst the store tests
 *   queue on one row (500 orders), which a pool of 10 serves well within the wait.
 * - `POOL_MIN_WARM`: connections opened at start and kept open however idle (the
 *   whole pool): a burst after a quiet moment finds them ready instead of opening
 *   ten under full load, where some failed their open timeout.
 * - `CONNECT_TIMEOUT_MS`: opening one connection, bounded separately (by the
 *   client class below) and much shorter, so that an unreachable server (packets
 *   dropped, no refusal) still answers 503 within 2 s.
 * - `statement_timeout` (server side) and `QUERY_TIMEOUT_MS` (client side, for a
 *   server or network that stops answering on an open connection: see
 *   `failUnansweredQueries`) bound every query, waits for row locks included (the
 *   500-order burst stays far below): no request waits on the database indefinitely.
 */
export const DATABASE_LIMITS = {
  POOL_MAX: 10,
  POOL_WAIT_MS: 5_000,
  POOL_MAX_WAITING: 1_000,
  POOL_MIN_WARM: 10,
  CONNECT_TIMEOUT_MS: 1_500,
  STATEMENT_TIMEOUT_MS: 5_000,
  QUERY_TIMEOUT_MS: 6_000,
  IDLE_IN_TRANSACTION_TIMEOUT_MS: 10_000,
} as const;

/**
 * pg's client, opening its connection within `CONNECT_TIMEOUT_MS` whatever the
 * pool's (longer) wait for a free connection, and failing its queries once the
 * server has left them unanswered for `QUERY_TIMEOUT_MS`. pg-pool hands its own
 * options to the client class it is given (its documented `Client` option).
 */
class BoundedClient extends pg.Client {
  constructor(config: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: DATABASE_LIMITS.CONNECT_TIMEOUT_MS });
    failUnansweredQueries(this, DATABASE_LIMITS.QUERY_TIMEOUT_MS);
  }
}

/**
 * The one builder of connection options, used by the Nest app and the TypeORM CLI.
 * Schema changes only through migrations, applied at start-up; never synchronize.
 */
export function buildDataSourceOptions(url: string, schema: DatabaseSchema): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: schema.entities ?? [],
    migrations: [...schema.migrations],
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new NestTypeOrmLogger(),
    maxQueryExecutionTime: SLOW_QUERY_MS,
    // pg itself, with the admission-controlled pool in place of its own.
    driver: { ...pg, Pool: AdmissionPool },
    extra: {
      Client: BoundedClient,
      max: DATABASE_LIMITS.POOL_MAX,
      maxWaiting: DATABASE_LIMITS.POOL_MAX_WAITING,
      min: DATABASE_LIMITS.POOL_MIN_WARM,
      connectionTimeoutMillis: DATABASE_LIMITS.POOL_WAIT_MS,
      statement_timeout: DATABASE_LIMITS.STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: DATABASE_LIMITS.IDLE_IN_TRANSACTION_TIMEOUT_MS,
      // Finds a peer that vanished without closing the connection (idle connections).
      keepAlive: true,
      application_name: 'petstore-api',
    },
  };
}
