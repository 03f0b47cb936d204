import request from 'supertest';
import { SCHEMA } from '../src/app.schema.js';
import { ShutdownState } from '../src/lifecycle/shutdown-state.js';
import { CaptureLogger } from './support/capture-logger.js';
import { expectError } from './support/http.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Far above the 1 s check timeout: an answer later than this is a hang. */
const ANSWER_WITHIN_MS = 5_000;

/**
 * GET /health/live and /health/ready (API.md section 4): public, cheap, never
 * rate limited; ready is 503 SERVICE_UNAVAILABLE naming what failed.
 */
describe('health (e2e)', () => {
  let t: TestApp;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp({}, { logger: new CaptureLogger() });
    await t.reset();
  });
  afterAll(() => t.close());

  it('GET /health/live answers 200 without an API key, and is not cached', async () => {
    const res = await api().get('/health/live').expect(200);
    expect(res.body).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
    expect(res.headers['cache-control']).toMatch(/no-cache/);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('GET /health/ready answers 200 with a small report: the database answers with every migration applied', async () => {
    const res = await api().get('/health/ready').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.info.database).toEqual({
      status: 'up',
      migrations: SCHEMA.migrations.length,
      responseTime: expect.any(Number),
    });
    if (process.env.REDIS_URL) expect(res.body.info.redis).toMatchObject({ status: 'up' });
    else expect(res.body.info.redis).toBeUndefined();
    expect(res.body.error).toEqual({});
  });

  it('never counts nor refuses probes, however often one address sends them', async () => {
    for (let i = 0; i < 80; i++)
      await api()
        .get(i % 2 ? '/health/live' : '/health/ready')
        .expect(200);
    const last = await api().get('/health/live').expect(200);
    expect(last.headers['x-ratelimit-remaining']).toBe(last.headers['x-ratelimit-limit']);
  });

  it('answers 503 naming the database when a migration of this build is not applied', async () => {
    const [row] = await t.db.query(`SELECT id, timestamp, name FROM migrations WHERE name = 'Store1763798400000'`);
    await t.db.query('DELETE FROM migrations WHERE id = $1', [row.id]);
    try {
      const res = await api().get('/health/ready');
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.body.message).toBe('Not ready: database (migrations not applied)');
      await api().get('/health/live').expect(200);
    } finally {
      await t.db.query('INSERT INTO migrations (id, timestamp, name) VALUES ($1, $2, $3)', [
        row.id,
        row.timestamp,
        row.name,
      ]);
    }
    await api().get('/health/ready').expect(200);
  });

  it('is not part of the API document, nor is /metrics', async () => {
    const doc = (await api().get('/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => /health|metrics/.test(path))).toEqual([]);
  });

  it('answers 503 "shutting down" once the shutdown has begun, while live stays 200', async () => {
    const other = await createTestApp();
    try {
      await request(other.http).get('/health/ready').expect(200);
      other.app.get(ShutdownState).begin();
      const res = await request(other.http).get('/health/ready');
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.body.message).toBe('Not ready: shutting down');
      await request(other.http).get('/health/live').expect(200);
    } finally {
      await other.close();
    }
  });

  describe('with the database unreachable', () => {
    let proxy: TcpProxy;
    let down: TestApp;

    beforeAll(async () => {
      const url = process.env.DATABASE_URL as string;
      proxy = TcpProxy.forUrl(url);
      await proxy.start();
      down = await createTestApp({ DATABASE_URL: proxy.urlFor(url) }, { logger: new CaptureLogger() });
    });
    afterAll(async () => {
      if (!proxy.running) await proxy.start();
      await down.close();
      await proxy.stop();
    });

    it('answers 503 naming the database, promptly, without internals; live stays 200', async () => {
      await request(down.http).get('/health/ready').expect(200);
      await proxy.stop();
      const started = Date.now();
      const res = await request(down.http).get('/health/ready').timeout(ANSWER_WITHIN_MS);
      const elapsed = Date.now() - started;
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.body.message).toBe('Not ready: database (not answering)');
      expect(res.text).not.toMatch(/127\.0\.0\.1|ECONN|postgres|terminated/i);
      expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
      await request(down.http).get('/health/live').expect(200);

      await proxy.start();
      await request(down.http).get('/health/ready').expect(200);
    });
  });
});
