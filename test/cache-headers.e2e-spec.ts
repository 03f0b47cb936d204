import { Controller, Get, Module } from '@nestjs/common';
import { Public } from '@petstore/auth';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { KEY } from './support/http.js';
import { createCategory, issueStoreKey } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** A test-only route that fails as a bug would: a 500 from the global filter. */
@Controller('test-cache')
class FailingController {
  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('boom');
  }
}

@Module({ imports: [AppModule.register()], controllers: [FailingController] })
class AppWithFailureModule {}

const ORIGIN = 'https://app.example';

/** The names listed in a Vary header, lower-cased. */
function varyOf(res: request.Response): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

/** What every per-client response carries: no shared cache may store it for another key. */
function expectPerClient(res: request.Response, what: string): void {
  const seen = {
    what,
    status: res.status,
    cacheControl: res.headers['cache-control'],
    keyInVary: varyOf(res).includes('x-api-key'),
  };
  expect(seen).toEqual({ what, status: res.status, cacheControl: 'private, no-cache', keyInVary: true });
}

/**
 * Issue 8, finding 8: answers to a key (and anything a client's rate-limit headers
 * describe) are per client, so shared caches must not serve them to anyone else.
 */
describe('cache headers (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let petId: number;
  let categoryId: number;
  let orderId: number;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: '', CORS_ORIGINS: ORIGIN }, { rootModule: AppWithFailureModule });
    await t.reset();
    admin = (await issueStoreKey(t, ['read', 'write', 'admin'])).secret;
    reader = (await issueStoreKey(t, ['read'])).secret;
    categoryId = await createCategory(t, admin, 'Cached');
    petId = (await api().post('/pets').set(KEY, admin).send({ name: 'Rex', categoryId }).expect(201)).body.id;
    await api().put(`/store/inventory/${petId}`).set(KEY, admin).send({ quantity: 5 }).expect(200);
    orderId = (await api().post('/store/orders').set(KEY, admin).send({ petId, quantity: 1 }).expect(201)).body.id;
  });
  afterAll(() => t.close());

  it('every GET of the API', async () => {
    const paths = [
      '/pets',
      `/pets?id=${petId}`,
      `/pets/${petId}`,
      '/categories',
      `/categories/${categoryId}`,
      '/store/orders',
      `/store/orders/${orderId}`,
      '/store/inventory',
      `/store/inventory/${petId}`,
      '/admin/api-keys',
      '/admin/plans',
      '/metrics',
    ];
    for (const path of paths) expectPerClient(await api().get(path).set(KEY, admin).expect(200), `GET ${path}`);
    expectPerClient(await api().head('/pets').set(KEY, admin).expect(200), 'HEAD /pets');
  });

  it('writes', async () => {
    expectPerClient(await api().post('/categories').set(KEY, admin).send({ name: 'Written' }).expect(201), 'POST');
    expectPerClient(await api().patch(`/pets/${petId}`).set(KEY, admin).send({ name: 'Rexy' }).expect(200), 'PATCH');
  });

  it('every kind of refusal, from the guard, the router, the body parser, the rate limiter and the global filter', async () => {
    const refusals: Array<[string, request.Response]> = [
      ['401 without a key', await api().get('/store/orders').expect(401)],
      ['401 with an unknown key', await api().get('/store/orders').set(KEY, 'psk_unknown').expect(401)],
      ['403', await api().get('/admin/api-keys').set(KEY, reader).expect(403)],
      ['404 of a record', await api().get('/store/orders/999999').set(KEY, admin).expect(404)],
      ['404 of a route', await api().get('/no/such/route').set(KEY, admin).expect(404)],
      ['404 of a route without a key', await api().get('/no/such/route').expect(404)],
      ['405', await api().delete('/pets').set(KEY, admin).expect(405)],
      ['400', await api().get('/pets?limit=0').set(KEY, admin).expect(400)],
      ['415', await api().post('/categories').set(KEY, admin).set('Content-Type', 'text/plain').send('x').expect(415)],
      ['500', await api().get('/test-cache/boom').expect(500)],
    ];
    for (const [what, res] of refusals) expectPerClient(res, what);
  });

  it('429 from the rate limiter', async () => {
    const limited = await t.key(['read'], 'enterprise', { perMinute: 1, perDay: 100 });
    await api().get('/categories').set(KEY, limited).expect(200);
    expectPerClient(await api().get('/categories').set(KEY, limited).expect(429), '429');
  });

  it('adds X-API-Key to the Vary that CORS sets', async () => {
    const res = await api().get('/pets').set(KEY, admin).set('Origin', ORIGIN).expect(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(varyOf(res)).toEqual(expect.arrayContaining(['x-api-key', 'origin']));
    expectPerClient(res, 'with CORS');
  });

  it('keeps conditional GET working: If-None-Match answers 304, still private', async () => {
    for (const path of ['/pets', `/pets?id=${petId}`, '/categories', '/store/orders']) {
      const first = await api().get(path).set(KEY, admin).expect(200);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^W\/"/);
      const again = await api().get(path).set(KEY, admin).set('If-None-Match', etag).expect(304);
      expect(again.headers.etag).toBe(etag);
      expectPerClient(again, `304 ${path}`);
    }
  });

  it('leaves the public documents and the health probes their own policy', async () => {
    for (const path of ['/openapi.json', '/openapi.yaml', '/docs']) {
      const res = await api().get(path);
      expect({ path, status: res.status < 400, cacheControl: res.headers['cache-control'] ?? null }).toEqual({
        path,
        status: true,
        cacheControl: expect.not.stringContaining('private') as unknown,
      });
    }
    const live = await api().get('/health/live').expect(200);
    expect(live.headers['cache-control']).toMatch(/^no-cache\b/);
  });
});
