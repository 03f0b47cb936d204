import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { CaptureLogger } from './support/capture-logger.js';
import { expectError, KEY } from './support/http.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Well above the database timeouts (1.5 s to connect): an answer later than this is a hang. */
const ANSWER_WITHIN_MS = 8_000;

/**
 * The database goes away under a running app (API.md section 7: 503
 * SERVICE_UNAVAILABLE, "recovers by itself"). The app reaches PostgreSQL through a
 * TCP proxy that the test stops (cutting live connections, refusing new ones) and
 * restarts on the same port.
 */
describe('database unavailable (e2e)', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let key: string;
  let categoryId: number;

  const api = () => request(t.http);
  const timed = <T extends request.Test>(test: T): T => test.timeout(ANSWER_WITHIN_MS);

  beforeAll(async () => {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: the e2e global setup starts the test database');
    proxy = TcpProxy.forUrl(url);
    await proxy.start();
    t = await createTestApp({ DATABASE_URL: proxy.urlFor(url) }, { logger: new CaptureLogger() });
    await t.reset();
    key = await t.key(['read', 'write'], 'enterprise');
    const category = await api().post('/categories').set(KEY, key).send({ name: 'Before' }).expect(201);
    categoryId = (category.body as { id: number }).id;
  });

  afterAll(async () => {
    if (!proxy.running) await proxy.start();
    await t.close();
    await proxy.stop();
  });

  it('serves through the proxy while the database is reachable', async () => {
    await timed(api().get(`/categories/${categoryId}`).set(KEY, key)).expect(200);
  });

  describe('while the database is down', () => {
    beforeAll(async () => {
      await proxy.stop();
    });

    it.each([
      ['GET', '/categories'],
      ['GET', '/pets?limit=5'],
      ['POST', '/categories'],
      ['POST', '/pets'],
      ['DELETE', `/categories/987654321`],
    ])('answers %s %s with 503 SERVICE_UNAVAILABLE, promptly', async (method, path) => {
      const started = Date.now();
      const call = timed(api()[method.toLowerCase() as 'post'](path).set(KEY, key));
      const body = path === '/pets' ? { name: 'Down', categoryId } : { name: `Down ${Date.now()}` };
      const res = method === 'POST' ? await call.send(body) : await call;
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
      expect(res.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres|terminated|timeout/i);
    });

    it('answers 503, not 401, for a key it has not seen yet (the key store is down too)', async () => {
      const unseen = `psk_${randomBytes(32).toString('base64url')}`;
      expectError(await timed(api().get('/pets').set(KEY, unseen)), 503, 'SERVICE_UNAVAILABLE');
    });

    it('still answers what needs no database', async () => {
      expectError(await timed(api().get('/nope').set(KEY, key)), 404, 'ROUTE_NOT_FOUND');
      expectError(await timed(api().get('/pets')), 401, 'UNAUTHENTICATED');
      await timed(api().get('/openapi.json')).expect(200);
    });

    it('answers several concurrent requests with 503, none hanging', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          timed(
            api()
              .get(`/pets?limit=${i + 1}`)
              .set(KEY, key),
          ),
        ),
      );
      for (const res of answers) expectError(res, 503, 'SERVICE_UNAVAILABLE');
    });
  });

  describe('once the database is back', () => {
    beforeAll(async () => {
      const port = proxy.port;
      await proxy.start(port);
      expect(proxy.port).toBe(port);
    });

    it('serves again without a restart', async () => {
      const read = await timed(api().get(`/categories/${categoryId}`).set(KEY, key));
      expect(read.status).toBe(200);
      const created = await timed(api().post('/categories').set(KEY, key).send({ name: 'After' }));
      expect(created.status).toBe(201);
      const list = await timed(api().get('/categories?limit=100').set(KEY, key)).expect(200);
      const names = (list.body as Array<{ name: string }>).map((c) => c.name);
      expect(names).toEqual(expect.arrayContaining(['Before', 'After']));
      expect(names.filter((name) => name.startsWith('Down '))).toEqual([]);
    });

    it('answers 503 within the connect timeout when the server accepts connections but never answers', async () => {
      await proxy.stop();
      await proxy.start(proxy.port, { silent: true });
      try {
        const started = Date.now();
        const res = await timed(api().post('/categories').set(KEY, key).send({ name: 'Silent' }));
        const elapsed = Date.now() - started;
        console.log(`[database-down] silent server: 503 after ${elapsed} ms`);
        expectError(res, 503, 'SERVICE_UNAVAILABLE');
        expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
      } finally {
        await proxy.stop();
        await proxy.start();
      }
      await timed(api().get('/categories').set(KEY, key)).expect(200);
    });

    it('answers 503 when the server stops answering on the open connections, and serves again once it is back', async () => {
      await timed(api().get('/categories').set(KEY, key)).expect(200); // connections open and idle
      proxy.stall();
      try {
        const started = Date.now();
        const res = await timed(api().get(`/categories/${categoryId}`).set(KEY, key));
        const elapsed = Date.now() - started;
        console.log(`[database-down] stalled connections: ${res.status} after ${elapsed} ms`);
        expectError(res, 503, 'SERVICE_UNAVAILABLE');
        expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
        expect(res.text).not.toMatch(/read timeout|postgres|terminated/i);
      } finally {
        await proxy.stop();
        await proxy.start();
      }
      await timed(api().get(`/categories/${categoryId}`).set(KEY, key)).expect(200);
    });

    it('survives a second outage in the middle of a burst', async () => {
      // `.then` sends each request now; supertest would otherwise wait until awaited.
      const burst = Array.from({ length: 10 }, () => timed(api().get('/categories').set(KEY, key)).then((res) => res));
      await proxy.stop();
      const during = await Promise.all(burst);
      for (const res of during) expect([200, 503]).toContain(res.status);
      for (const res of during.filter((r) => r.status === 503)) expectError(res, 503, 'SERVICE_UNAVAILABLE');
      await proxy.start();
      await timed(api().get('/categories').set(KEY, key)).expect(200);
    });
  });
});
