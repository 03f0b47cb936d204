import { SYSTEM } from '../src/audit/index.js';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { MetricsServer } from '../src/metrics/metrics-server.js';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The value of one sample of the exposition text, e.g. `name{a="1",b="2"}`, or 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]\w*=")/).filter(Boolean);
    if (wanted.every((pair) => present.includes(pair)) && present.length === wanted.length) return Number(match[3]);
  }
  return 0;
}

/**
 * GET /metrics (API.md section 4: admin scope, or METRICS_PORT): Prometheus text
 * with request durations, 429s, store events, the database pool and process metrics.
 */
describe('metrics (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let keys: ApiKeysService;
  const api = () => request(t.http);
  const scrape = async (app: TestApp = t): Promise<string> =>
    (await request(app.http).get('/metrics').set(KEY, admin).expect(200)).text;

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: '' });
    await t.reset();
    keys = t.app.get(ApiKeysService);
    admin = await t.key(['read', 'write', 'admin'], 'enterprise');
  });
  afterAll(() => t.close());

  it('needs the admin scope, and answers in the Prometheus text format', async () => {
    expectError(await api().get('/metrics'), 401, 'UNAUTHENTICATED');
    expectError(
      await api()
        .get('/metrics')
        .set(KEY, await t.key(['read', 'write'])),
      403,
      'INSUFFICIENT_SCOPE',
    );
    const res = await api().get('/metrics').set(KEY, admin).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/^# HELP http_request_duration_seconds /m);
    expect(res.text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
  });

  it('includes the default process metrics', async () => {
    const text = await scrape();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
  });

  it('times requests by method, route template (never the raw path) and status', async () => {
    const before = await scrape();
    const labels = { method: 'GET', route: '/pets/:petId', status: '404' };
    await api().get('/pets/990001').set(KEY, admin).expect(404);
    await api().get('/pets/990002').set(KEY, admin).expect(404);
    await api().get('/definitely/unknown/990003').set(KEY, admin).expect(404);
    const after = await scrape();
    expect(sample(after, 'http_request_duration_seconds_count', labels)).toBe(
      sample(before, 'http_request_duration_seconds_count', labels) + 2,
    );
    expect(
      sample(after, 'http_request_duration_seconds_bucket', { le: '+Inf', ...labels }) -
        sample(before, 'http_request_duration_seconds_bucket', { le: '+Inf', ...labels }),
    ).toBe(2);
    expect(
      sample(after, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toMatch(/990001|990003/);
  });

  it('counts orders placed, completed and cancelled, and stock-outs; an idempotent replay is not a new order', async () => {
    const category = (await api().post('/categories').set(KEY, admin).send({ name: 'Metrics' }).expect(201)).body;
    const pet = (
      await api().post('/pets').set(KEY, admin).send({ name: 'Counted', categoryId: category.id }).expect(201)
    ).body;
    await api().put(`/store/inventory/${pet.id}`).set(KEY, admin).send({ quantity: 2 }).expect(200);
    const before = await scrape();
    const place = () => api().post('/store/orders').set(KEY, admin).send({ petId: pet.id, quantity: 1 });
    const first = (await place().expect(201)).body;
    const second = (await place().expect(201)).body; // takes the last unit: a stock-out
    await place().expect(409);
    await api().patch(`/store/orders/${first.id}`).set(KEY, admin).send({ complete: true }).expect(200);
    await api().delete(`/store/orders/${second.id}`).set(KEY, admin).expect(204);
    await place().set('Idempotency-Key', 'metrics-1').expect(201); // the returned unit, again the last
    await place().set('Idempotency-Key', 'metrics-1').expect(201); // replayed
    const after = await scrape();
    const delta = (name: string) => sample(after, name) - sample(before, name);
    expect({
      placed: delta('petstore_orders_placed_total'),
      completed: delta('petstore_orders_completed_total'),
      cancelled: delta('petstore_orders_cancelled_total'),
      stockOuts: delta('petstore_stock_outs_total'),
    }).toEqual({ placed: 3, completed: 1, cancelled: 1, stockOuts: 2 });
  });

  it('reports the database pool: connections in use and idle, requests waiting, and its size', async () => {
    const text = await scrape();
    expect(sample(text, 'petstore_db_pool_max')).toBe(10);
    expect(sample(text, 'petstore_db_pool_idle')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'petstore_db_pool_in_use')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'petstore_db_pool_in_use') + sample(text, 'petstore_db_pool_idle')).toBeLessThanOrEqual(10);
    expect(text).toMatch(/^petstore_db_pool_waiting \d+$/m);
  });

  it('keeps a registry per app: another app in this process counts only its own requests', async () => {
    const other = await createTestApp({ REDIS_URL: '' });
    try {
      const labels = { method: 'GET', route: '/health/live', status: '200' };
      const mineBefore = sample(await scrape(), 'http_request_duration_seconds_count', labels);
      for (let i = 0; i < 3; i++) await request(other.http).get('/health/live').expect(200);
      expect(sample(await scrape(other), 'http_request_duration_seconds_count', labels)).toBe(3);
      expect(sample(await scrape(), 'http_request_duration_seconds_count', labels)).toBe(mineBefore);
    } finally {
      await other.close();
    }
  });

  it('counts 429s by plan and reason: RATE_LIMIT_EXCEEDED, then API_KEY_BANNED', async () => {
    const before = await scrape();
    const tight = await keys.create(
      {
        name: 'tight',
        plan: 'enterprise',
        scopes: ['read'],
        limits: { perMinute: 1, perDay: 100 },
      },
      SYSTEM,
    );
    const send = () => api().get('/categories').set(KEY, tight.secret);
    await send().expect(200);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await send().expect(429)).body.code);
    // 3 × 1 rejections are tolerated, the fourth bans.
    expect(codes).toEqual([
      'RATE_LIMIT_EXCEEDED',
      'RATE_LIMIT_EXCEEDED',
      'RATE_LIMIT_EXCEEDED',
      'API_KEY_BANNED',
      'API_KEY_BANNED',
    ]);
    const free = await t.key(['read'], 'free');
    for (let i = 0; i < 60; i++) await api().get('/categories').set(KEY, free).expect(200);
    await api().get('/categories').set(KEY, free).expect(429);

    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      sample(after, 'petstore_rate_limited_requests_total', labels) -
      sample(before, 'petstore_rate_limited_requests_total', labels);
    expect(delta({ plan: 'enterprise', reason: 'RATE_LIMIT_EXCEEDED' })).toBe(3);
    expect(delta({ plan: 'enterprise', reason: 'API_KEY_BANNED' })).toBe(2);
    expect(delta({ plan: 'free', reason: 'RATE_LIMIT_EXCEEDED' })).toBe(1);
    expect(
      sample(after, 'http_request_duration_seconds_count', { method: 'GET', route: '/categories', status: '429' }),
    ).toBeGreaterThanOrEqual(6);
  });

  it('counts requests without a valid key under the plan "anonymous"', async () => {
    const before = await scrape();
    let refused = 0;
    for (let i = 0; i < 70 && refused === 0; i++) {
      if ((await api().get('/pets')).status === 429) refused++;
    }
    expect(refused).toBe(1);
    const labels = { plan: 'anonymous', reason: 'RATE_LIMIT_EXCEEDED' };
    expect(
      sample(await scrape(), 'petstore_rate_limited_requests_total', labels) -
        sample(before, 'petstore_rate_limited_requests_total', labels),
    ).toBe(1);
  });

  describe('with METRICS_PORT', () => {
    let m: TestApp;
    let port: number;

    beforeAll(async () => {
      m = await createTestApp({ REDIS_URL: '', METRICS_PORT: '0' });
      port = m.app.get(MetricsServer).port as number;
    });
    afterAll(() => m.close());

    it('serves /metrics on that port without an API key', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await res.text()).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    });

    it('answers anything else there with 404 in the Error shape', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/pets`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'ROUTE_NOT_FOUND', message: expect.any(String), status: 404 });
    });

    it('no longer serves /metrics on the main port, even to an admin', async () => {
      const mainAdmin = await m.key(['read', 'write', 'admin'], 'enterprise');
      expectError(await request(m.http).get('/metrics').set(KEY, mainAdmin), 404, 'ROUTE_NOT_FOUND');
      expectError(await request(m.http).get('/metrics'), 404, 'ROUTE_NOT_FOUND');
    });

    it('closes the port with the app', async () => {
      const other = await createTestApp({ REDIS_URL: '', METRICS_PORT: '0' });
      const otherPort = other.app.get(MetricsServer).port as number;
      expect((await fetch(`http://127.0.0.1:${otherPort}/metrics`)).status).toBe(200);
      await other.close();
      await expect(fetch(`http://127.0.0.1:${otherPort}/metrics`)).rejects.toThrow();
    });
  });
});
