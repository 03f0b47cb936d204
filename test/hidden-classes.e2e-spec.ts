import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import { KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { hasFastProperties, haveSameMap } from './support/v8-natives.js';

interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/**
 * Every request and response object goes through Node, Express, Nest and the
 * service's middleware: if any of them gives such an object a hidden class of its
 * own (a prototype changed after birth, a getter closure per request) or turns it
 * into a dictionary, every property read on it, everywhere, gets slower, and each
 * property added allocates a new map (docs/performance.md: 0.6-0.75x the CPU per
 * request once fixed). The whole app, everything on (logging, rate limits, auth).
 */
describe('request and response objects keep one hidden class (e2e)', () => {
  let t: TestApp;
  let key: string;
  let petId: number;
  const seen: Exchange[] = [];
  const api = () => request(t.http);
  const lines = new Writable({ write: (_chunk, _encoding, done) => done() });

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: '', LOG_LEVEL: 'info' }, { logStream: lines });
    await t.reset();
    key = await t.key(['read', 'write', 'admin']);
    const category = await api().post('/categories').set(KEY, key).send({ name: 'Shapes' }).expect(201);
    petId = (await api().post('/pets').set(KEY, key).send({ name: 'Rex', categoryId: category.body.id }).expect(201))
      .body.id;
    await api().put(`/store/inventory/${petId}`).set(KEY, key).send({ quantity: 100 }).expect(200);
    (t.http as Server).prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
      seen.push({ req, res }),
    );
  });
  afterAll(() => t.close());
  beforeEach(() => {
    seen.length = 0;
  });

  const get = (path: () => string) => () => api().get(path());
  it.each([
    ['GET /pets?id=N', get(() => `/pets?id=${petId}`), 200],
    ['GET /pets/{id}', get(() => `/pets/${petId}`), 200],
    ['GET /pets', get(() => '/pets'), 200],
    ['POST /store/orders', () => api().post('/store/orders').send({ petId, quantity: 1 }), 201],
    ['an unknown route', get(() => '/no/such/route'), 404],
    ['a bad query', get(() => '/pets?id=x'), 400],
  ])('%s', async (_, send, status) => {
    for (let i = 0; i < 4; i += 1) await send().set(KEY, key).expect(status);
    expect(seen).toHaveLength(4);
    const [first, ...others] = seen;
    for (const { req, res } of seen) {
      expect({ req: hasFastProperties(req), res: hasFastProperties(res) }).toEqual({ req: true, res: true });
    }
    for (const { req, res } of others) {
      expect({ req: haveSameMap(first.req, req), res: haveSameMap(first.res, res) }).toEqual({ req: true, res: true });
    }
  });
});
