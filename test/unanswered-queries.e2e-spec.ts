import pg from 'pg';
import { Pipeline } from '../src/database/pipeline.js';
import { failUnansweredQueries, QUERY_READ_TIMEOUT } from '../src/database/unanswered-queries.js';
import { TcpProxy } from './support/tcp-proxy.js';

const AFTER_MS = 300;
const SELECT_ONE = { name: 'test_unanswered_select', text: 'SELECT $1::int AS n' };

/**
 * A client's queries fail once the server stops answering on its open connection
 * (a hung host), and a quiet connection with nothing outstanding is left alone.
 * The client reaches the test database through a TCP proxy that the test stalls.
 */
describe('failUnansweredQueries (real PostgreSQL)', () => {
  let proxy: TcpProxy;
  const clients: pg.Client[] = [];

  async function connectedClient(): Promise<pg.Client> {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: the e2e global setup starts the test database');
    const client = new pg.Client({ connectionString: proxy.urlFor(url) });
    failUnansweredQueries(client, AFTER_MS);
    client.on('error', () => undefined); // the pool's listener, in the service
    clients.push(client);
    await client.connect();
    return client;
  }

  beforeEach(async () => {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    proxy = TcpProxy.forUrl(url);
    await proxy.start();
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end().catch(() => undefined);
    await proxy.stop();
  });

  it('leaves a quiet connection with nothing outstanding open, and its next query answered', async () => {
    const client = await connectedClient();
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS * 3));
    const { rows } = await client.query<{ n: number }>('SELECT 1 AS n');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('fails the query in progress and the queued ones once the server stops answering', async () => {
    const client = await connectedClient();
    await client.query('SELECT 1');
    proxy.stall();
    const started = Date.now();
    const outcomes = await Promise.allSettled([client.query('SELECT 2'), client.query('SELECT 3')]);
    const elapsed = Date.now() - started;
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ message: QUERY_READ_TIMEOUT });
    }
    expect(elapsed).toBeGreaterThanOrEqual(AFTER_MS - 50);
  });

  it('fails a pipeline in progress (several statements in one round trip) the same way', async () => {
    const client = await connectedClient();
    await client.query('SELECT 1');
    proxy.stall();
    const pending = Pipeline.run(client, ['BEGIN', { statement: SELECT_ONE, values: [1] }, 'COMMIT']);
    await expect(pending).rejects.toMatchObject({ message: QUERY_READ_TIMEOUT });
  });

  it('refuses a client whose pg no longer has the state it reads', () => {
    const stripped = Object.assign(Object.create(pg.Client.prototype) as pg.Client, { connection: {} });
    expect(() => failUnansweredQueries(stripped, AFTER_MS)).toThrow(/review failUnansweredQueries/);
  });
});
