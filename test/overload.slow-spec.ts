import type { Pool, PoolClient } from 'pg';
import request from 'supertest';
import { DATABASE_LIMITS, poolOf } from '../src/database/index.js';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Overload is said as overload: when every database connection is busy, a request
 * that cannot get one within the wait bound answers 503 `OVERLOADED` with `Retry-After` — not `SERVICE_UNAVAILABLE`
 * (the database is up), not 500. The pool is made busy from inside the test by checking out every
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
    const found = poolOf(t.db);
    if (!found) throw new Error('the app has no database pool');
    pool = found;
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
});
