import { SYSTEM } from '../src/audit/index.js';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { KEY } from './support/http.js';
import { type LogEntry, LogCapture } from './support/log-capture.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Structured logs (issue: one JSON line per request with method, route, status,
 * duration, request id and API key id, never the key; X-Request-Id kept or made,
 * and present in every line logged during the request).
 */
describe('request logs (e2e)', () => {
  const logs = new LogCapture();
  let t: TestApp;
  let key: string;
  let keyId: number;
  const api = () => request(t.http);

  /** The one request line of a response, found by the id the client received. */
  function lineOf(res: request.Response): LogEntry {
    const id = String(res.headers['x-request-id']);
    const lines = logs.forRequest(id).filter((entry) => 'durationMs' in entry);
    expect({ id, lines: lines.length }).toEqual({ id, lines: 1 });
    return lines[0];
  }

  beforeAll(async () => {
    // The first app of this file: nestjs-pino's Nest logger (installed as main.ts
    // does) then writes to this capture too, at debug level.
    t = await createTestApp({ REDIS_URL: '', LOG_LEVEL: 'debug' }, { logStream: logs });
    t.app.useLogger(t.app.get(PinoNestLogger));
    await t.reset();
    const created = await t.app.get(ApiKeysService).create(
      {
        name: 'logs',
        plan: 'enterprise',
        scopes: ['read', 'write', 'admin'],
        limits: { perMinute: 100_000, perDay: 1_000_000 },
      },
      SYSTEM,
    );
    key = created.secret;
    keyId = created.key.id;
  });
  afterAll(() => t.close());
  beforeEach(() => logs.clear());

  it('writes one JSON line per request: method, route template, status, duration, request id, API key id', async () => {
    const res = await api().get('/pets/424242').set(KEY, key).expect(404);
    const line = lineOf(res);
    expect(line).toMatchObject({
      level: 'info',
      reqId: res.headers['x-request-id'],
      method: 'GET',
      route: '/pets/:petId',
      status: 404,
      code: 'PET_NOT_FOUND',
      apiKeyId: keyId,
      msg: 'GET /pets/:petId 404',
      req: { url: '/pets/424242' },
    });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(new Date(String(line.time)).toISOString()).toBe(line.time);
  });

  it('keeps a well-formed incoming X-Request-Id, and replaces a malformed one', async () => {
    const kept = await api().get('/categories').set(KEY, key).set('X-Request-Id', 'client-trace.42:a_b-c');
    expect(kept.headers['x-request-id']).toBe('client-trace.42:a_b-c');
    expect(lineOf(kept).reqId).toBe('client-trace.42:a_b-c');

    const replaced = await api().get('/categories').set(KEY, key).set('X-Request-Id', 'bad id <script>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lineOf(replaced).reqId).toBe(replaced.headers['x-request-id']);
    expect(logs.entries.filter((entry) => entry.reqId === 'bad id <script>')).toEqual([]);
  });

  it('makes a different id for every request without one', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(String((await api().get('/health/live')).headers['x-request-id']));
    expect(ids.size).toBe(5);
  });

  it('never logs the API key, nor Authorization or Cookie headers', async () => {
    const res = await api()
      .get('/categories')
      .set(KEY, key)
      .set('Authorization', 'Bearer bearer-secret-123')
      .set('Cookie', 'session=cookie-secret-456');
    const headers = (lineOf(res).req as { headers: Record<string, string> }).headers;
    expect(headers['x-api-key']).toBe('[Redacted]');
    expect(headers.authorization).toBe('[Redacted]');
    expect(headers.cookie).toBe('[Redacted]');
    expect(logs.text).not.toContain(key);
    expect(logs.text).not.toContain(key.slice(4, 20));
    expect(logs.text).not.toMatch(/bearer-secret|cookie-secret/);
    // An unknown key is not logged either.
    await api().get('/categories').set(KEY, 'psk_unknownSecretValue_0123456789');
    expect(logs.text).not.toContain('unknownSecretValue');
  });

  it('logs requests refused before routing, with the route they were for and the error code', async () => {
    const tight = await t.app.get(ApiKeysService).create(
      {
        name: 'tight',
        plan: 'enterprise',
        scopes: ['read', 'write'],
        limits: { perMinute: 1, perDay: 100 },
      },
      SYSTEM,
    );
    await api().get('/categories').set(KEY, tight.secret).expect(200);
    const limited = await api().get('/categories/7').set(KEY, tight.secret).expect(429);
    expect(lineOf(limited)).toMatchObject({
      route: '/categories/:categoryId',
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      apiKeyId: tight.key.id,
    });

    const unsupported = await api()
      .post('/categories')
      .set(KEY, key)
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(415);
    expect(lineOf(unsupported)).toMatchObject({ route: '/categories', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });

    const anonymous = await api().get('/pets').expect(401);
    expect(lineOf(anonymous)).toMatchObject({ route: '/pets', status: 401, code: 'UNAUTHENTICATED' });
    expect(lineOf(anonymous).apiKeyId).toBeUndefined();

    const unknown = await api().get('/no/such/route').set(KEY, key).expect(404);
    expect(lineOf(unknown)).toMatchObject({ route: null, status: 404, code: 'ROUTE_NOT_FOUND' });
  });

  it('binds the request id to every line logged during the request, not only the request line', async () => {
    await api().post('/categories').set(KEY, key).send({ name: 'Twice' }).expect(201);
    const res = await api().post('/categories').set(KEY, key).send({ name: 'twice' }).expect(409);
    const lines = logs.forRequest(String(res.headers['x-request-id']));
    // The unique violation, logged by the database layer through Nest's Logger, then the request line.
    expect(lines.map((entry) => entry.context ?? 'request')).toEqual(['Database', 'request']);
    expect(lines[0]).toMatchObject({ level: 'debug', msg: expect.stringMatching(/constraint \(SQLSTATE 23505\)/) });
  });

  it('follows LOG_LEVEL: at warn, successful requests leave no line', async () => {
    const quiet = new LogCapture();
    const other = await createTestApp({ REDIS_URL: '', LOG_LEVEL: 'warn' }, { logStream: quiet });
    try {
      await request(other.http).get('/health/live').expect(200);
      await request(other.http).get('/pets').expect(401);
      expect(quiet.entries).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
