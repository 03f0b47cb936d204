import { isDependencyUnavailable, isPoolWaitTimeout } from '@petstore/errors';
import pg from 'pg';
import { TcpProxy } from './support/tcp-proxy.js';

/**
 * The driver errors that carry no code and are known by their message
 * (`MESSAGES` in libs/errors/src/unavailable-error.ts, `POOL_WAIT_TIMEOUT` in
 * libs/errors/src/overloaded-error.ts): each made here by the real pg driver
 * against the test's PostgreSQL (or a TCP proxy in front of it), so that a driver
 * that renames one, or starts giving it a code, shows here. Timeouts are a few
 * hundred milliseconds: the suite takes about a second.
 */
describe('driver errors known by their message (pg, e2e)', () => {
  const url = process.env.DATABASE_URL as string;
  let proxy: TcpProxy;
  const clients: pg.Client[] = [];

  beforeEach(async () => {
    proxy = TcpProxy.forUrl(url);
    await proxy.start();
  });
  afterEach(async () => {
    await proxy.stop();
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
  });

  /** A connected client, through the proxy unless `direct`; its `error` events are ignored (the tests read its calls). */
  async function connected(config: pg.ClientConfig = {}, { direct = false } = {}): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: direct ? url : proxy.urlFor(url), ...config });
    client.on('error', () => undefined);
    clients.push(client);
    await client.connect();
    return client;
  }

  /** The error `promise` rejects with, checked to carry no code anywhere along its causes. */
  async function failure(promise: Promise<unknown>): Promise<Error> {
    const error = await promise.then(
      () => {
        throw new Error('expected the driver to fail');
      },
      (e: unknown) => e as Error,
    );
    for (let e: unknown = error; e instanceof Error; e = e.cause)
      expect((e as { code?: unknown }).code).toBeUndefined();
    return error;
  }

  it('"Connection terminated unexpectedly": the connection is cut under a query', async () => {
    const client = await connected();
    const query = client.query('SELECT pg_sleep(1)');
    setTimeout(() => void proxy.stop(), 50);
    const error = await failure(query);
    expect(error.message).toBe('Connection terminated unexpectedly');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('"Connection terminated": the client is ended under a query', async () => {
    const client = await connected();
    const query = client.query('SELECT pg_sleep(1)');
    setTimeout(() => void client.end(), 50);
    const error = await failure(query);
    expect(error.message).toBe('Connection terminated');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('"Connection terminated due to connection timeout": pg-pool gives up opening a connection', async () => {
    await proxy.stop();
    await proxy.start(proxy.port, { silent: true });
    const pool = new pg.Pool({ connectionString: proxy.urlFor(url), connectionTimeoutMillis: 200 });
    try {
      const error = await failure(pool.connect());
      expect(error.message).toBe('Connection terminated due to connection timeout');
      expect(isDependencyUnavailable(error)).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('"timeout expired": the client gives up opening a connection (the service\'s own connect timeout)', async () => {
    await proxy.stop();
    await proxy.start(proxy.port, { silent: true });
    const client = new pg.Client({ connectionString: proxy.urlFor(url), connectionTimeoutMillis: 200 });
    const error = await failure(client.connect());
    expect(error.message).toBe('timeout expired');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('"Client has encountered a connection error and is not queryable": a query after the backend was terminated', async () => {
    const admin = await connected({}, { direct: true });
    const client = await connected({}, { direct: true });
    const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const lost = new Promise((resolve) => client.once('error', resolve));
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await lost;
    const error = await failure(client.query('SELECT 1'));
    expect(error.message).toBe('Client has encountered a connection error and is not queryable');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('"Client was closed and is not queryable": a query after the client was ended', async () => {
    const client = await connected();
    await client.end();
    const error = await failure(client.query('SELECT 1'));
    expect(error.message).toBe('Client was closed and is not queryable');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('"Query read timeout": no answer within query_timeout', async () => {
    const client = await connected({ query_timeout: 100 });
    const error = await failure(client.query('SELECT pg_sleep(0.5)'));
    expect(error.message).toBe('Query read timeout');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('"timeout exceeded when trying to connect": the wait for a free pool connection runs out (overload, not outage)', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 200 });
    const held = await pool.connect();
    try {
      const error = await failure(pool.connect());
      expect(error.message).toBe('timeout exceeded when trying to connect');
      expect(isPoolWaitTimeout(error)).toBe(true);
      expect(isDependencyUnavailable(error)).toBe(false);
    } finally {
      held.release();
      await pool.end();
    }
  });

  it('a refused connection carries its code (ECONNREFUSED): no message needed', async () => {
    await proxy.stop();
    const client = new pg.Client({ connectionString: proxy.urlFor(url) });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error?.code).toBe('ECONNREFUSED');
    expect(isDependencyUnavailable(error)).toBe(true);
  });
});
