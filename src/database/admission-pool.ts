import { OverloadedError } from '@petstore/errors';
import pg from 'pg';

/** pg-pool's error when a request waited `connectionTimeoutMillis` for a busy pool (not when opening a connection). */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

type Done = (release?: unknown) => void;
type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: Done) => void;

export interface AdmissionPoolConfig extends pg.PoolConfig {
  /** Requests that may wait for a connection; one more is refused at once with `OverloadedError`. */
  readonly maxWaiting: number;
}

function translate(error: Error | undefined): Error | undefined {
  return error?.message === POOL_WAIT_TIMEOUT
    ? new OverloadedError('no database connection became free within the wait bound')
    : error;
}

/**
 * pg's pool with admission control: while `maxWaiting` requests already wait for
 * a connection, the next is shed at once instead of joining a queue it would time
 * out in, and a wait that runs out is said as overload (503 `OVERLOADED`), not as
 * a database outage. Handed to TypeORM as its driver's `Pool`.
 */
export class AdmissionPool extends pg.Pool {
  private readonly maxWaiting: number;

  constructor({ maxWaiting, ...config }: AdmissionPoolConfig) {
    super(config);
    this.maxWaiting = maxWaiting;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const shed = this.waitingCount >= this.maxWaiting && this.idleCount === 0;
    if (callback) {
      if (shed) return process.nextTick(callback, this.overloaded(), undefined, () => undefined);
      return super.connect((error, client, done) => callback(translate(error), client, done));
    }
    if (shed) return Promise.reject(this.overloaded());
    return super.connect().catch((error: Error) => Promise.reject(translate(error) ?? error));
  }

  private overloaded(): OverloadedError {
    return new OverloadedError(`${this.waitingCount} requests already wait for a database connection`);
  }
}
