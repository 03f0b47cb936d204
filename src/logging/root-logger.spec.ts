import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import type { DestinationStream } from 'pino';
import { requestJson } from './log-serializers.js';
import { redactionProneText } from '../../test/support/redaction-prone-text.js';
import { createRootLogger, requestInfoLineWriter } from './root-logger.js';

const KEY = 'psk_Ab3dEf6hIj9lMn2pQr5tUv8xYz1_-bCdEfGhIjKlMnO';

class Lines implements DestinationStream {
  readonly written: string[] = [];
  write(line: string): void {
    this.written.push(line);
  }
}

describe('createRootLogger', () => {
  it('writes no key and no credential value in a line logged during a request, whatever field holds it', () => {
    const lines = new Lines();
    const log = createRootLogger('info', lines).child({ reqId: 'r-1' });
    log.error({ err: new Error(`cannot parse ${KEY}`), detail: { url: `/x?token=abc` } }, `GET /x?api_key=abc -> 500`);
    const line = JSON.parse(lines.written[0]) as Record<string, unknown>;
    expect(line).toMatchObject({
      reqId: 'r-1',
      msg: 'GET /x?api_key=[Redacted] -> 500',
      err: { message: 'cannot parse [Redacted]' },
      detail: { url: '/x?token=[Redacted]' },
    });
    expect(lines.written[0]).not.toContain(KEY.slice(4));
  });

  it('keeps the lines the service writes outside requests as they are (the first admin key is printed once)', () => {
    const lines = new Lines();
    createRootLogger('info', lines).warn({ context: 'ApiKeys' }, `It is shown only now: ${KEY}`);
    expect(lines.written[0]).toContain(KEY);
  });

  it('serializes errors without their query parameters, and leaves the error itself untouched', () => {
    const lines = new Lines();
    const error = Object.assign(new Error('query failed: password=hunter2'), {
      query: 'SELECT $1',
      parameters: ['client data'],
      detail: { nested: [`key ${KEY}`] },
    });
    createRootLogger('info', lines).error({ err: error }, 'failed');
    const line = JSON.parse(lines.written[0]) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({
      type: 'Error',
      message: 'query failed: password=[Redacted]',
      query: 'SELECT $1',
      detail: { nested: ['key [Redacted]'] },
    });
    expect(line.err.stack).toEqual(expect.stringContaining('password=[Redacted]'));
    expect(line.err.parameters).toBeUndefined();
    expect(error.parameters).toEqual(['client data']);
  });

  it('redacts the URL and headers of a logged request', () => {
    const lines = new Lines();
    const req = {
      url: '/pets?limit=1',
      originalUrl: '/pets?limit=1&access_token=abc',
      headers: { host: 'localhost', 'x-auth-token': 'abc', 'x-debug': `a ${KEY}` },
      socket: { remoteAddress: '127.0.0.1' },
    };
    createRootLogger('info', lines).info({ req }, 'request');
    expect(JSON.parse(lines.written[0])).toMatchObject({
      req: {
        url: '/pets?limit=1&access_token=[Redacted]',
        remoteAddress: '127.0.0.1',
        headers: { host: 'localhost', 'x-auth-token': '[Redacted]', 'x-debug': '[Redacted]' },
      },
    });
  });

  it("censors the credential headers with pino's redact, whatever they hold, and leaves the request untouched", () => {
    const lines = new Lines();
    const headers = {
      host: 'localhost',
      'x-api-key': 'not-shaped-like-a-key',
      authorization: 'Bearer abc',
      'proxy-authorization': 'Basic abc',
      cookie: 'a=1',
      'set-cookie': ['b=2'],
    };
    createRootLogger('info', lines)
      .child({ req: { url: '/pets', headers } })
      .info('request');
    expect(JSON.parse(lines.written[0])).toMatchObject({
      req: {
        headers: {
          host: 'localhost',
          'x-api-key': '[Redacted]',
          authorization: '[Redacted]',
          'proxy-authorization': '[Redacted]',
          cookie: '[Redacted]',
          'set-cookie': '[Redacted]',
        },
      },
    });
    expect(headers['x-api-key']).toBe('not-shaped-like-a-key');
  });
});

describe('requestInfoLineWriter', () => {
  it('writes the line root.info(fields, msg) writes: same fields in the same order, redacted alike', () => {
    const viaPino = new Lines();
    const direct = new Lines();
    const req = {
      url: `/pets?api_key=abc&q="x"`,
      socket: { remoteAddress: '::1' },
      headers: { 'x-note': `a ${KEY}`, host: 'h', 'x-api-key': 'plain', authorization: 'Bearer b', cookie: ['c=1'] },
    } as unknown as IncomingMessage;
    const fields = { reqId: 'r-2', method: 'GET', route: null, status: 200, durationMs: 3, apiKeyId: 7 };
    const msg = 'GET /pets 200 \u2028 "quoted"';
    createRootLogger('info', viaPino).info({ ...fields, req }, msg);
    requestInfoLineWriter(createRootLogger('info', direct), direct)({ ...fields, req: requestJson(req) }, msg);
    const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
    expect(withoutTime(direct.written[0])).toBe(withoutTime(viaPino.written[0]));
    expect(direct.written[0]).not.toContain(KEY.slice(4));
    expect(direct.written[0].endsWith('\n')).toBe(true);
  });

  it.each([
    { reqId: 'a.b:c-1', method: 'POST', route: '/store/orders', status: 409, durationMs: 0, code: 'PET_NOT_AVAILABLE' },
    { reqId: 'r "q" \\', method: 'GET', route: '/pets/:petId', status: 304, durationMs: 12, apiKeyId: 1 },
  ])('matches root.info with optional fields present or absent (%o)', (fields) => {
    const viaPino = new Lines();
    const direct = new Lines();
    const req = { url: '/x', socket: {}, headers: {} } as unknown as IncomingMessage;
    createRootLogger('info', viaPino).info({ ...fields, req }, 'm');
    requestInfoLineWriter(createRootLogger('info', direct), direct)({ ...fields, req: requestJson(req) }, 'm');
    const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
    expect(withoutTime(direct.written[0])).toBe(withoutTime(viaPino.written[0]));
  });

  it('matches root.info for any text in its string fields: redacted field by field as the whole line would be', () => {
    const text = fc.oneof(fc.string(), redactionProneText(KEY));
    fc.assert(
      fc.property(
        text,
        fc.option(text, { nil: null }),
        fc.option(text, { nil: undefined }),
        text,
        (reqId, route, code, msg) => {
          const viaPino = new Lines();
          const direct = new Lines();
          const fields = { reqId, method: 'GET', route, status: 200, durationMs: 1, code };
          const req = { url: '/x', socket: {}, headers: {} } as unknown as IncomingMessage;
          createRootLogger('info', viaPino).info({ ...fields, req }, msg);
          requestInfoLineWriter(createRootLogger('info', direct), direct)({ ...fields, req: requestJson(req) }, msg);
          const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
          expect(withoutTime(direct.written[0])).toBe(withoutTime(viaPino.written[0]));
        },
      ),
    );
  });

  it('writes nothing when info lines are off', () => {
    const lines = new Lines();
    requestInfoLineWriter(createRootLogger('warn', lines), lines)(
      {
        reqId: 'r-3',
        method: 'GET',
        route: '/',
        status: 200,
        durationMs: 1,
        req: '{"url":"/"}',
      },
      'GET / 200',
    );
    expect(lines.written).toEqual([]);
  });
});
