import type { Pool, PoolClient } from 'pg';
import request from 'supertest';
import { DATABASE_LIMITS } from '../src/database/data-source-options.js';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Overload is said as overload: when every database connection is busy, a request
 * that cannot get one within the wait bound, or that would join a queue already at
 * its bound, answers 503 `OVERLOADED` with `Retry-After` — not `SERVICE_UNAVAILABLE`
 * (the database is up), not 500, and the queue is shed at once rather than after
 * the wait. The pool is made busy from inside the test by checking out every
 * connection of the app's own pool.
 */
describe('overload (pool saturated, database up)', () => {
  let t: TestApp;
  let admin: string;
  let pool: Pool;
  let held: PoolClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise');
    // Resolve the key once so that its cached entry, not the database, answers for it below.
    await request(t.http).get('/categories').set(KEY, admin).expect(200);
    pool = (t.db.driver as unknown as { master: Pool }).master;
  });
  afterAll(() => t.close());

  async function saturate(): Promise<void> {
    held = await Promise.all(Array.from({ length: DATABASE_LIMITS.POOL_MAX }, () => pool.connect()));
  }
  afterEach(() => {
    for (const client of held) client.release();
    held = [];
  });

  it('answers 503 OVERLOADED with Retry-After once the bounded wait for a connection runs out', async () => {
    await saturate();
    const started = Date.now();
    const res = await request(t.http).get('/pets').set(KEY, admin);
    const waited = Date.now() - started;
    expectError(res, 503, 'OVERLOADED');
    expect(res.headers['retry-after']).toBe('1');
    expect(waited).toBeGreaterThanOrEqual(DATABASE_LIMITS.POOL_WAIT_MS - 100);
  });

  it('sheds at once, without waiting, when the queue for connections is at its bound', async () => {
    await saturate();
    const queued = Array.from({ length: DATABASE_LIMITS.POOL_MAX_WAITING }, () =>
      pool.connect().then(
        (client) => client.release(),
        () => undefined,
      ),
    );
    expect(pool.waitingCount).toBe(DATABASE_LIMITS.POOL_MAX_WAITING);
    const started = Date.now();
    const responses = await Promise.all([
      request(t.http).get('/pets').set(KEY, admin),
      request(t.http).post('/categories').set(KEY, admin).send({ name: 'Shed' }),
    ]);
    const took = Date.now() - started;
    for (const res of responses) {
      expectError(res, 503, 'OVERLOADED');
      expect(res.headers['retry-after']).toBe('1');
    }
    // Far below the wait bound: shed, not queued.
    expect(took).toBeLessThan(DATABASE_LIMITS.POOL_WAIT_MS / 2);
    for (const client of held) client.release();
    held = [];
    await Promise.all(queued);
    // Nothing was written by the shed request, and the service serves again at once.
    const names = (await request(t.http).get('/categories').set(KEY, admin).expect(200)).body as Array<{
      name: string;
    }>;
    expect(names.map((c) => c.name)).not.toContain('Shed');
  });
});
