import { OverloadedError } from '@petstore/errors';
import pg from 'pg';

/** pg-pool's error when a request waited `connectionTimeoutMillis` for a busy pool (not when opening a connection). */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';
/** Opening a connection ran out of time (pg's client, or pg-pool's own timer). */
const OPEN_TIMEOUTS = ['timeout expired', 'Connection terminated due to connection timeout'];
/** Retries of a connection that timed out opening while the server is demonstrably up. */
const OPEN_RETRIES = 2;
const REWARM_DELAY_MS = 1_000;

type Done = (release?: unknown) => void;
type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: Done) => void;

export interface AdmissionPoolConfig extends pg.PoolConfig {
  /** Requests that may wait for a connection; one more is refused at once with `OverloadedError`. */
  readonly maxWaiting: number;
  /** Connections opened at start and kept open however idle, so a burst finds them ready. */
  readonly min: number;
  /** The wait budget of one request (`connectionTimeoutMillis` of the pool), within which a failed open is retried. */
  readonly connectionTimeoutMillis: number;
}

function translate(error: Error): Error {
  return error.message === POOL_WAIT_TIMEOUT
    ? new OverloadedError('no database connection became free within the wait bound')
    : error;
}

const isOpenTimeout = (error: Error) => OPEN_TIMEOUTS.some((message) => error.message.includes(message));

/**
 * pg's pool with admission control and warm connections, handed to TypeORM as
 * its driver's `Pool`:
 * - while `maxWaiting` requests already wait for a connection, the next is shed
 *   at once instead of joining a queue it would time out in, and a wait that runs
 *   out is said as overload (503 `OVERLOADED`), not as a database outage;
 * - `min` connections are opened at start and reopened when one is lost, and
 *   never closed for idleness (pg-pool's `min`), so a burst after a quiet moment
 *   does not open connections under load;
 * - a connection that times out opening while others are open (the server is
 *   up, the machine is busy) is retried within the request's wait budget; with no
 *   connection open (the server may be gone) the failure is answered at once.
 */
export class AdmissionPool extends pg.Pool {
  private readonly maxWaiting: number;
  private readonly waitBudgetMs: number;
  private warming = false;

  constructor({ maxWaiting, ...config }: AdmissionPoolConfig) {
    super(config);
    this.maxWaiting = maxWaiting;
    this.waitBudgetMs = config.connectionTimeoutMillis;
    this.on('remove', () => this.rewarmLater());
    setImmediate(() => this.warm());
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (!callback) {
      return new Promise((resolve, reject) =>
        this.connect((error, client) => (error ? reject(error) : resolve(client as pg.PoolClient))),
      );
    }
    if (this.waitingCount >= this.maxWaiting && this.idleCount === 0) {
      const shed = new OverloadedError(`${this.waitingCount} requests already wait for a database connection`);
      process.nextTick(() => callback(shed, undefined, () => undefined));
      return;
    }
    this.connectWithin(Date.now() + this.waitBudgetMs, 0, callback);
  }

  /**
   * pg-pool's own callback path (every query and transaction comes here, most of
   * them while others wait for a connection): no promise between the pool handing
   * over a connection and its user, and none on the way back.
   */
  private connectWithin(deadline: number, attempt: number, callback: ConnectCallback): void {
    super.connect((error, client, done) => {
      if (!error) return callback(undefined, client, done);
      const failure = translate(error);
      const retry =
        isOpenTimeout(failure) &&
        attempt < OPEN_RETRIES &&
        this.totalCount > 0 &&
        !this.ending &&
        Date.now() < deadline;
      if (!retry) return callback(failure, undefined, () => undefined);
      setTimeout(() => this.connectWithin(deadline, attempt + 1, callback), 25 << attempt);
    });
  }

  /** Opens connections up to `min` (each checked out and given back at once); failures wait for the next try. */
  private warm(): void {
    const missing = (this.options.min ?? 0) - this.totalCount;
    if (this.warming || this.ending || missing <= 0) return;
    this.warming = true;
    const opened = Array.from({ length: missing }, () => super.connect().then((client) => client.release()));
    void Promise.allSettled(opened).then((results) => {
      this.warming = false;
      if (results.some((result) => result.status === 'rejected')) this.rewarmLater();
    });
  }

  private rewarmLater(): void {
    if (this.ending) return;
    setTimeout(() => this.warm(), REWARM_DELAY_MS).unref();
  }
}
