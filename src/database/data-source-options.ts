import pg from 'pg';
import type { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';
import type { MigrationRenames } from './run-migrations.js';
import { NestTypeOrmLogger, SLOW_QUERY_MS } from './typeorm-logger.js';

/** What a composition root hands the connection: the modules' entities (when not auto-loaded) and migrations. */
export interface DatabaseSchema {
  readonly entities?: DataSourceOptions['entities'];
  /** In the order they run. */
  readonly migrations: ReadonlyArray<new () => MigrationInterface>;
  /** Migrations renamed after they shipped: former name → name (`runMigrations`). */
  readonly renamedMigrations?: MigrationRenames;
}

/**
 * Connection limits and timeouts (pg's and pg-pool's documented options), chosen
 * so that a database outage answers 503 within 2 s while bursts of store traffic
 * still queue rather than fail.
 *
 * - `POOL_MAX`: at most 10 connections per instance (2 replicas: 20, far below
 *   PostgreSQL's default 100).
 * - `POOL_WAIT_MS`: how long a request may wait for a free connection (pg-pool's
 *   `connectionTimeoutMillis`). The store concurrency tests put 300–500 orders for
 *   one pet on one row lock behind these 10 connections, so the last of them waits
 *   about as long as the whole burst (measured 0.9–1.7 s for 500 orders on 2 CPUs):
 *   5 s leaves ~3× headroom. A wait that runs out is pg-pool's
 *   `timeout exceeded when trying to connect`, answered as overload (503
 *   `OVERLOADED`), not as an outage. An outage does not fill this queue: refused
 *   connections fail at once.
 * - `CONNECT_TIMEOUT_MS`: opening one connection (pg's client option of the same
 *   name, given by the client class below), much shorter than the wait, so that an
 *   unreachable server (packets dropped, no refusal) still answers 503 within 2 s.
 * - `statement_timeout` (server side) and `QUERY_TIMEOUT_MS` (pg's `query_timeout`,
 *   client side, for a server or network that stops answering on an open
 *   connection) bound every query, waits for row locks included: no request waits
 *   on the database indefinitely.
 */
export const DATABASE_LIMITS = {
  POOL_MAX: 10,
  POOL_WAIT_MS: 5_000,
  CONNECT_TIMEOUT_MS: 1_500,
  STATEMENT_TIMEOUT_MS: 5_000,
  QUERY_TIMEOUT_MS: 6_000,
  IDLE_IN_TRANSACTION_TIMEOUT_MS: 10_000,
} as const;

/**
 * pg's client with its own `connectionTimeoutMillis`: pg-pool hands every client
 * the pool's options (where `connectionTimeoutMillis` is the wait for a free
 * connection), and takes the client class as its documented `Client` option.
 */
class BoundedClient extends pg.Client {
  constructor(config: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: DATABASE_LIMITS.CONNECT_TIMEOUT_MS });
  }
}

/** The pg pool each connection's options made, by those options' driver object. */
const pools = new WeakMap<object, pg.Pool>();

/**
 * The pg pool behind `dataSource` (for its documented counts: `totalCount`,
 * `idleCount`, `waitingCount`), or null before it connected. Found through the
 * `driver` object of its options (TypeORM's documented `driver` option), whose
 * `Pool` records the pool it makes.
 */
export function poolOf(dataSource: DataSource): pg.Pool | null {
  const driver: unknown = dataSource.options.driver;
  return (typeof driver === 'object' && driver !== null && pools.get(driver)) || null;
}

/** pg, with a `Pool` that records the pool it makes for `poolOf`. */
function recordedPg(): object {
  const driver = {
    ...pg,
    Pool: function RecordedPool(config: pg.PoolConfig): pg.Pool {
      const pool = new pg.Pool(config);
      pools.set(driver, pool);
      return pool;
    },
  };
  return driver;
}

/**
 * The one builder of connection options, used by the Nest app and the TypeORM CLI.
 * Schema changes only through migrations, applied at start-up by `runMigrations`
 * (the app) or `npm run migration:run`; never synchronize.
 */
export function buildDataSourceOptions(url: string, schema: DatabaseSchema): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: schema.entities ?? [],
    migrations: [...schema.migrations],
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new NestTypeOrmLogger(),
    maxQueryExecutionTime: SLOW_QUERY_MS,
    driver: recordedPg(),
    extra: {
      Client: BoundedClient,
      max: DATABASE_LIMITS.POOL_MAX,
      connectionTimeoutMillis: DATABASE_LIMITS.POOL_WAIT_MS,
      query_timeout: DATABASE_LIMITS.QUERY_TIMEOUT_MS,
      statement_timeout: DATABASE_LIMITS.STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: DATABASE_LIMITS.IDLE_IN_TRANSACTION_TIMEOUT_MS,
      // Finds a peer that vanished without closing the connection (idle connections).
      keepAlive: true,
      application_name: 'petstore-api',
    },
  };
}
