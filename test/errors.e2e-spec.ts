import { Controller, Get, Module, Post } from '@nestjs/common';
import { Public, RequireScope } from '@petstore/auth';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { CaptureLogger } from './support/capture-logger.js';
import { expectError, KEY, rawJson } from './support/http.js';
import { LogCapture } from './support/log-capture.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** Test-only routes that fail the way real bugs do. */
@Controller('test-failures')
class FailingController {
  @Get('sync')
  @Public()
  sync(): never {
    throw new Error('boom: SELECT secret FROM internals');
  }

  @Get('async')
  @RequireScope('read')
  async async(): Promise<never> {
    await new Promise((resolve) => setImmediate(resolve));
    throw new TypeError("boom: Cannot read properties of undefined (reading 'SELECT secret FROM internals')");
  }

  @Post('not-an-error')
  @Public()
  notAnError(): never {
    throw { sql: 'SELECT secret FROM internals', boom: true };
  }
}

@Module({ imports: [AppModule.register()], controllers: [FailingController] })
class AppWithFailuresModule {}

const LEAKS = ['SELECT', 'secret', 'internals', 'boom', 'Error', 'stack', '.ts:', 'node_modules'];
/** A stack frame such as `at Foo.bar (file.js:1:2)`. */
const STACK_FRAME = /\bat \S+ \(|:\d+:\d+\)/;

describe('errors (e2e)', () => {
  let t: TestApp;
  let key: string;
  let categoryId: number;
  const logger = new CaptureLogger();
  const logs = new LogCapture();

  const api = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp({}, { rootModule: AppWithFailuresModule, logger, logStream: logs });
    await t.reset();
    key = await t.key(['read', 'write', 'admin'], 'enterprise');
    const category = await api().post('/categories').set(KEY, key).send({ name: 'Errors' }).expect(201);
    categoryId = (category.body as { id: number }).id;
  });
  afterAll(() => t.close());

  describe('unknown routes and methods', () => {
    it.each(['/nope', '/pets/1/owner', '/categories/1/pets', '/admin', '/PETS/extra/deep'])(
      'answers 404 ROUTE_NOT_FOUND for GET %s',
      async (path) => {
        expectError(await api().get(path).set(KEY, key), 404, 'ROUTE_NOT_FOUND');
      },
    );

    it('answers 404 ROUTE_NOT_FOUND without a key too (no auth wall in front of unknown routes)', async () => {
      expectError(await api().get('/definitely/not/here'), 404, 'ROUTE_NOT_FOUND');
    });

    it.each<[string, string, string[]]>([
      ['DELETE', '/pets', ['GET', 'POST']],
      ['PUT', '/pets', ['GET', 'POST']],
      ['POST', '/pets/1', ['DELETE', 'GET', 'PATCH', 'PUT']],
      ['PATCH', '/categories', ['GET', 'POST']],
      ['POST', '/categories/1', ['DELETE', 'GET', 'PUT']],
      ['PUT', '/admin/plans', ['GET']],
    ])('answers %s %s with 405 METHOD_NOT_ALLOWED and an Allow header', async (method, path, allowed) => {
      const res = await api()[method.toLowerCase() as 'post'](path).set(KEY, key);
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      const allow = String(res.headers.allow)
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
      expect(allow.sort()).toEqual(allowed);
    });
  });

  describe('refusals answered before any I/O', () => {
    // With the key cached and counters in this process, these are answered in the request's own tick,
    // before Node's parser has flagged the (bodyless) request complete: the connection must stay open.
    it.each<[string, string, number, boolean]>([
      ['GET', '/nope', 404, true],
      ['GET', '/nope', 404, false],
      ['GET', '/pets?limit=0', 400, true],
      ['GET', '/pets', 401, false],
      ['DELETE', '/pets', 405, true],
    ])('%s %s (%i, with a key: %s) keeps the connection alive', async (method, path, status, withKey) => {
      for (let i = 0; i < 2; i++) {
        const req = api()[method.toLowerCase() as 'get'](path).set('Connection', 'keep-alive');
        const res = await (withKey ? req.set(KEY, key) : req);
        expect(res.status).toBe(status);
        expect(res.headers.connection).toBe('keep-alive');
      }
    });
  });

  describe('request bodies', () => {
    it('answers 400 MALFORMED_JSON for a body that is not JSON', async () => {
      for (const text of ['{"name":', '{name: "Rex"}', "{'a':1}", '{"a":1}}', '\u0000']) {
        expectError(await rawJson(api().post('/pets').set(KEY, key), text), 400, 'MALFORMED_JSON');
      }
    });

    it('answers 400 for a JSON array or scalar body', async () => {
      for (const text of ['[]', '[{"name":"Rex"}]', '3', '"Rex"', 'true', 'null']) {
        const res = await rawJson(api().post('/categories').set(KEY, key), text);
        expectError(res, 400);
        expect(['MALFORMED_JSON', 'VALIDATION_FAILED']).toContain((res.body as { code: string }).code);
      }
    });

    it('answers 413 PAYLOAD_TOO_LARGE above 16 KiB, and reads a body of exactly 16 KiB', async () => {
      const sized = (bytes: number) => {
        const base = `{"name":"","categoryId":${categoryId}}`;
        return base.replace('""', `"${'x'.repeat(bytes - base.length)}"`);
      };
      expect(Buffer.byteLength(sized(16 * 1024))).toBe(16 * 1024);
      const limit = await rawJson(api().post('/pets').set(KEY, key), sized(16 * 1024));
      expectError(limit, 400, 'VALIDATION_FAILED');
      const over = await rawJson(api().post('/pets').set(KEY, key), sized(16 * 1024 + 1));
      expectError(over, 413, 'PAYLOAD_TOO_LARGE');
      const huge = await rawJson(api().post('/pets').set(KEY, key), sized(1024 * 1024));
      expectError(huge, 413, 'PAYLOAD_TOO_LARGE');
    });

    it.each([
      ['text/plain', 'name=Rex'],
      ['application/x-www-form-urlencoded', 'name=Rex&categoryId=1'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nRex\r\n--x--'],
      ['application/xml', '<pet><name>Rex</name></pet>'],
    ])('answers 415 UNSUPPORTED_MEDIA_TYPE for a %s body', async (type, body) => {
      const res = await api().post('/pets').set(KEY, key).set('Content-Type', type).send(body);
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('creates nothing from a refused body', async () => {
      const before = await api().get('/pets?limit=100').set(KEY, key).expect(200);
      await api().post('/pets').set(KEY, key).set('Content-Type', 'text/plain').send('Rex').expect(415);
      await rawJson(api().post('/pets').set(KEY, key), '{"name":"Rex",').expect(400);
      const after = await api().get('/pets?limit=100').set(KEY, key).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('accepts application/json with a charset parameter', async () => {
      const res = await api()
        .post('/categories')
        .set(KEY, key)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ name: 'Charset' }));
      expect(res.status).toBe(201);
    });
  });

  describe('headers', () => {
    it('never sends X-Powered-By and always sends the helmet headers', async () => {
      const responses = [
        await api().get('/pets').set(KEY, key),
        await api().get('/nope').set(KEY, key),
        await api().get('/pets'),
        await rawJson(api().post('/pets').set(KEY, key), '{'),
      ];
      for (const res of responses) {
        expect(res.headers['x-powered-by']).toBeUndefined();
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBeDefined();
        expect(res.headers['content-security-policy']).toBeDefined();
      }
    });

    it('gives API answers the security headers of an API, and the documentation those made for HTML', async () => {
      for (const res of [await api().get('/pets').set(KEY, key), await api().get('/nope').set(KEY, key)]) {
        expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      }
      const docs = await api().get('/docs').expect(200);
      expect(docs.headers['content-security-policy']).toContain("script-src 'self'");
      expect(docs.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(docs.headers['cross-origin-opener-policy']).toBe('same-origin');
    });

    it('gives every response its own X-Request-Id', async () => {
      const ids = new Set<string>();
      for (const path of ['/pets', '/pets', '/nope']) {
        const res = await api().get(path).set(KEY, key);
        expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
        ids.add(String(res.headers['x-request-id']));
      }
      expect(ids.size).toBe(3);
    });

    it('echoes a well-formed incoming X-Request-Id, on success and on failure', async () => {
      const ok = await api().get('/pets').set(KEY, key).set('X-Request-Id', 'trace-123.abc:def').expect(200);
      expect(ok.headers['x-request-id']).toBe('trace-123.abc:def');
      const failed = await api().get('/nope').set(KEY, key).set('X-Request-Id', 'trace-404');
      expectError(failed, 404, 'ROUTE_NOT_FOUND');
      expect(failed.headers['x-request-id']).toBe('trace-404');
    });

    it('replaces an incoming X-Request-Id that could inject into logs or headers', async () => {
      for (const incoming of ['has spaces', 'x'.repeat(500), 'a"b', 'line\tbreak']) {
        const res = await api().get('/pets').set(KEY, key).set('X-Request-Id', incoming).expect(200);
        expect(res.headers['x-request-id']).not.toBe(incoming);
        expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      }
    });
  });

  describe('unexpected errors', () => {
    it.each([
      ['a thrown Error', 'get', '/test-failures/sync'],
      ['a rejected promise', 'get', '/test-failures/async'],
      ['a thrown non-Error', 'post', '/test-failures/not-an-error'],
    ])('turns %s into 500 INTERNAL_ERROR without internals', async (_, method, path) => {
      const res = await api()[method as 'get'](path).set(KEY, key);
      expectError(res, 500, 'INTERNAL_ERROR');
      for (const leak of LEAKS) expect(res.text).not.toContain(leak);
      expect(res.text).not.toMatch(STACK_FRAME);
      expect(Object.values(res.headers).join(' ')).not.toMatch(/SELECT|boom/);
    });

    it('logs the details, with the stack, under the request id the client received', async () => {
      const res = await api().get('/test-failures/sync').set(KEY, key).set('X-Request-Id', 'boom-trace-1');
      expectError(res, 500, 'INTERNAL_ERROR');
      expect(res.headers['x-request-id']).toBe('boom-trace-1');
      const detail = logs.forRequest('boom-trace-1').find((entry) => entry.err !== undefined);
      expect(detail).toMatchObject({ level: 'error', code: 'INTERNAL_ERROR', status: 500 });
      const err = detail?.err as { message: string; stack: string };
      expect(err.message).toContain('SELECT secret FROM internals');
      expect(err.stack).toMatch(STACK_FRAME);
      expect(logs.requestLine('boom-trace-1')).toMatchObject({ level: 'error', status: 500, code: 'INTERNAL_ERROR' });
    });

    it('keeps serving after an unexpected error', async () => {
      await api().get('/test-failures/sync').expect(500);
      await api().get('/pets').set(KEY, key).expect(200);
    });
  });
});
