import { randomBytes } from 'node:crypto';
import { Controller, Get, Module, Req } from '@nestjs/common';
import { Public } from '@petstore/auth';
import type { Request } from 'express';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { KEY } from './support/http.js';
import { type LogEntry, LogCapture } from './support/log-capture.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** A test-only route whose failure quotes what the client sent, as a careless error message would. */
@Controller('test-leaks')
class LeakyController {
  @Get('echo')
  @Public()
  echo(@Req() req: Request): never {
    throw Object.assign(
      new Error(
        `cannot handle ${req.originalUrl} (x-thing: ${String(req.headers['x-thing'])}) password=${typeof req.query.pwd === 'string' ? req.query.pwd : ''}`,
      ),
      // What TypeORM's QueryFailedError carries: the query's parameters are client data.
      { query: 'SELECT $1', parameters: [req.query.pwd] },
    );
  }
}

@Module({ imports: [AppModule.register()], controllers: [LeakyController] })
class AppWithLeakyRouteModule {}

/** A value shaped like an API key (never a valid one). */
const fakeKey = (): string => `psk_${randomBytes(32).toString('base64url')}`;
/** A secret that does not look like a key: only where it is sent can tell it is one. */
const plainSecret = (): string => `plainSecret${randomBytes(8).toString('hex')}`;
/** A header sent once per value (superagent passes an array to Node, which writes one line each; its types only allow that for Cookie). */
const repeated = (...values: string[]): string => values as unknown as string;
/** What must never reach the log: the part after the readable prefix. */
const body = (secret: string): string => secret.replace(/^psk_/, '');

/**
 * Issue 8, finding 5: whatever a client sends a credential in — a misnamed header,
 * a query parameter, the path, a Referer, a header that should be harmless, an
 * error message quoting the request — the log never shows it.
 */
describe('no secret in the logs (e2e)', () => {
  const logs = new LogCapture();
  let t: TestApp;
  let key: string;
  const api = () => request(t.http);
  const sent: string[] = [];

  /** Remembers a secret to look for at the end too, and returns it. */
  function secret(make: () => string = plainSecret): string {
    const value = make();
    sent.push(value);
    return value;
  }

  function expectAbsent(...secrets: string[]): void {
    for (const value of secrets)
      expect({ value, logged: logs.text.includes(body(value)) }).toEqual({ value, logged: false });
  }

  function requestLine(res: request.Response): LogEntry & { req: { url: string; headers: Record<string, unknown> } } {
    const line = logs.requestLine(String(res.headers['x-request-id']));
    expect(line).toBeDefined();
    return line as LogEntry & { req: { url: string; headers: Record<string, unknown> } };
  }

  beforeAll(async () => {
    t = await createTestApp(
      { REDIS_URL: '', LOG_LEVEL: 'debug' },
      { rootModule: AppWithLeakyRouteModule, logStream: logs },
    );
    // As main.ts does: Nest's own logger writes through pino (and so to this capture).
    t.app.useLogger(t.app.get(PinoNestLogger));
    await t.reset();
    key = await t.key(['read', 'write', 'admin'], 'enterprise');
    sent.push(key);
  });
  afterAll(async () => {
    // Every secret sent by every test, in the whole log of the file.
    expectAbsent(...sent);
    await t.close();
  });

  describe('misnamed headers', () => {
    it.each([
      'Api-Key',
      'Api_Key',
      'ApiKey',
      'X-Api-Token',
      'X-Auth-Token',
      'X-Access-Token',
      'X-Client-Secret',
      'X-Session-Id',
      'X-Password',
      'Passwd',
      'X-Signature',
      'X-Credentials',
      'X-CSRF-Token',
    ])('%s', async (name) => {
      const value = secret();
      const res = await api().get('/categories').set(KEY, key).set(name, value).expect(200);
      expect(requestLine(res).req.headers[name.toLowerCase()]).toBe('[Redacted]');
      expectAbsent(value, key);
    });

    it('a key in the right header sent twice', async () => {
      const first = secret(fakeKey);
      const res = await api().get('/categories').set(KEY, repeated(first, key)).expect(401);
      expect(requestLine(res).req.headers['x-api-key']).toBe('[Redacted]');
      expectAbsent(first, key);
    });
  });

  describe('headers with harmless names carrying a key', () => {
    it.each(['X-Debug', 'User-Agent', 'X-Forwarded-User', 'Accept-Language'])('%s', async (name) => {
      const value = secret(fakeKey);
      const res = await api().get('/categories').set(KEY, key).set(name, `some text ${value} more`).expect(200);
      expect(requestLine(res).req.headers[name.toLowerCase()]).toBe('[Redacted]');
      expectAbsent(value);
    });

    it('a repeated header, the key in its second copy', async () => {
      const value = secret(fakeKey);
      const res = await api().get('/categories').set(KEY, key).set('X-Note', repeated('harmless', value)).expect(200);
      expect(requestLine(res).req.headers['x-note']).toBe('[Redacted]');
      expectAbsent(value);
    });

    it('a key sent as X-Request-Id is neither kept as the id nor logged', async () => {
      const value = secret(fakeKey);
      const res = await api().get('/categories').set(KEY, key).set('X-Request-Id', value).expect(200);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(requestLine(res).reqId).toBe(res.headers['x-request-id']);
      expectAbsent(value);
    });

    it('keeps harmless headers as they were', async () => {
      const res = await api().get('/categories').set(KEY, key).set('User-Agent', 'petstore-test/1.0').expect(200);
      expect(requestLine(res).req.headers['user-agent']).toBe('petstore-test/1.0');
    });
  });

  describe('query parameters', () => {
    it.each([
      'api_key',
      'apiKey',
      'API-KEY',
      'x-api-key',
      'key',
      'token',
      'access_token',
      'password',
      'client_secret',
      'sessionId',
      'sig',
      'signature',
      'auth',
      'api%5Fkey',
    ])('?%s=…', async (name) => {
      const value = secret();
      const res = await api().get(`/pets?limit=1&${name}=${value}`).set(KEY, key).expect(400);
      expect(requestLine(res).req.url).toBe(`/pets?limit=1&${name}=[Redacted]`);
      expectAbsent(value);
    });

    it.each([
      ['a harmless name', (value: string) => `q=${value}`],
      ['no name', (value: string) => value],
      ['a percent-encoded underscore', (value: string) => `note=${value.replace('psk_', 'psk%5F')}`],
      ['a repeated parameter', (value: string) => `q=a&q=${value}`],
    ])('a key in %s', async (_name, query) => {
      const value = secret(fakeKey);
      const res = await api()
        .get(`/pets?${query(value)}`)
        .set(KEY, key);
      expect(requestLine(res).req.url).toContain('[Redacted]');
      expectAbsent(value);
    });

    it('keeps the other parameters as they were', async () => {
      const res = await api().get('/pets?status=available&limit=1').set(KEY, key).expect(200);
      expect(requestLine(res).req.url).toBe('/pets?status=available&limit=1');
    });
  });

  describe('the path', () => {
    it.each([
      ['a route', (value: string) => `/pets/${value}`],
      ['no route', (value: string) => `/nope/${value}/more`],
      ['a percent-encoded underscore', (value: string) => `/categories/${value.replace('psk_', 'psk%5f')}`],
    ])('a key in the path of %s', async (_name, path) => {
      const value = secret(fakeKey);
      const res = await api().get(path(value)).set(KEY, key);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(requestLine(res).req.url).toContain('[Redacted]');
      expectAbsent(value);
    });
  });

  describe('Referer', () => {
    it.each([
      ['a credential parameter', (value: string) => `https://example.com/app?tab=2&api_key=${value}`, plainSecret],
      ['a key in a parameter', (value: string) => `https://example.com/app?q=${value}`, fakeKey],
      ['a key in its path', (value: string) => `https://example.com/${value}/page`, fakeKey],
    ])('with %s', async (_name, referer, make) => {
      const value = secret(make);
      const res = await api().get('/categories').set(KEY, key).set('Referer', referer(value)).expect(200);
      expect(String(requestLine(res).req.headers.referer)).toContain('[Redacted]');
      expectAbsent(value);
    });

    it('keeps a Referer without secrets', async () => {
      const res = await api().get('/categories').set(KEY, key).set('Referer', 'https://example.com/a?b=c').expect(200);
      expect(requestLine(res).req.headers.referer).toBe('https://example.com/a?b=c');
    });
  });

  describe('5xx lines', () => {
    it('an error message, its stack and its query parameters quoting the request', async () => {
      const token = secret();
      const password = secret();
      const thing = secret(fakeKey);
      const res = await api().get(`/test-leaks/echo?token=${token}&pwd=${password}`).set('X-Thing', thing).expect(500);
      const lines = logs.forRequest(String(res.headers['x-request-id']));
      const detail = lines.find((line) => 'err' in line);
      expect(detail).toMatchObject({
        level: 'error',
        msg: expect.stringContaining('/test-leaks/echo?token=[Redacted]'),
      });
      const err = detail?.err as Record<string, unknown>;
      expect(err.message).toContain('password=[Redacted]');
      expect(err.parameters).toBeUndefined();
      expectAbsent(token, password, thing);
    });
  });
});
