import express, { type Express, type Request, type Response } from 'express';
import { createServer, type Server } from 'node:http';
import request, { type Response as TestResponse } from 'supertest';
import { weakEtag } from '../shared/http/weak-etag.js';
import { expressMessageClasses } from './express-message-classes.js';
import { replyJson } from './json-reply.js';

const BODIES: Record<string, object> = {
  pet: { id: 7, name: 'Rex', categoryId: 1, status: 'available' },
  list: [{ id: 1, name: 'Kätzchen 🐈' }, { id: 2 }],
  empty: [],
  dated: { at: new Date('2026-11-25T00:00:00Z'), nested: { ok: true } },
};

/** Whether the app's server is built with the service's message classes (responses that take head lines). */
let headLines = false;

/**
 * `/json/:body` answers with Express's `res.json`, `/fast/:body` with `replyJson`; `?status=` and `?type=` preset
 * them. `server` is what the requests go to: the app, or a server of the service's message classes (`headLines`).
 */
function app(etag: unknown = weakEtag): { server: Express | Server; app: Express; handled: boolean[] } {
  const server = express();
  const handled: boolean[] = [];
  server.set('etag', etag);
  const preset = (req: Request, res: Response) => {
    if (req.query.status) res.status(Number(req.query.status));
    if (req.query.type) res.setHeader('Content-Type', String(req.query.type));
  };
  server.get('/json/:body', (req, res) => {
    preset(req, res);
    res.json(BODIES[req.params.body]);
  });
  server.get('/fast/:body', (req, res) => {
    preset(req, res);
    const done = replyJson(res, BODIES[req.params.body]);
    handled.push(done);
    if (!done) res.json(BODIES[req.params.body]);
  });
  return { server: headLines ? createServer(expressMessageClasses(server), server) : server, app: server, handled };
}

/** What a client sees of an answer, without the headers that differ between two requests. */
function seen(res: TestResponse): object {
  const headers: Record<string, unknown> = { ...res.headers };
  delete headers.date;
  return { status: res.status, headers, text: res.text };
}

async function both(
  server: Express | Server,
  method: 'get' | 'head',
  path: string,
  headers: Record<string, string> = {},
) {
  const ask = (prefix: string) => {
    const req = request(server)[method](`/${prefix}/${path}`);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return req;
  };
  return { express: seen(await ask('json')), fast: seen(await ask('fast')) };
}

describe.each([
  ['Node’s own responses', false],
  ['responses that take head lines (the service’s)', true],
])('replyJson, on %s', (_kind, withHeadLines) => {
  beforeAll(() => {
    headLines = withHeadLines;
  });

  it.each(Object.keys(BODIES))('answers %s as res.json does: status, headers, body', async (name) => {
    const { server, handled } = app();
    const { express: expected, fast } = await both(server, 'get', name);
    expect(fast).toEqual(expected);
    expect(handled).toEqual([true]);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const { server } = app();
    const { express: expected, fast } = await both(server, 'head', 'list');
    expect(fast).toEqual(expected);
    expect((fast as { headers: Record<string, string> }).headers['content-length']).toBe(
      String(Buffer.byteLength(JSON.stringify(BODIES.list))),
    );
  });

  it('answers 304 to a matching If-None-Match, and 200 to another', async () => {
    const { server } = app();
    const etag = (await request(server).get('/fast/pet')).headers.etag as string;
    for (const ifNoneMatch of [etag, `"other", ${etag}`, '*', 'W/"nope"']) {
      const { express: expected, fast } = await both(server, 'get', 'pet', { 'If-None-Match': ifNoneMatch });
      expect(fast).toEqual(expected);
    }
    expect((await request(server).get('/fast/pet').set('If-None-Match', etag)).status).toBe(304);
  });

  it('keeps a status the handler set', async () => {
    const { server } = app();
    const { express: expected, fast } = await both(server, 'get', 'pet?status=201');
    expect(fast).toEqual(expected);
  });

  it('uses the app’s ETag setting: none when it is off', async () => {
    const { server } = app(false);
    const { express: expected, fast } = await both(server, 'get', 'pet');
    expect(fast).toEqual(expected);
    expect((fast as { headers: Record<string, string> }).headers.etag).toBeUndefined();
  });

  it('leaves to Express what is not plain: a preset Content-Type, a status without a body', async () => {
    for (const path of ['pet?type=application/problem%2Bjson', 'pet?status=204', 'pet?status=205']) {
      const { server, handled } = app();
      const { express: expected, fast } = await both(server, 'get', path);
      expect(fast).toEqual(expected);
      expect(handled).toEqual([false]);
    }
  });

  it('leaves to Express an app with JSON settings', async () => {
    const { server, app: express, handled } = app();
    express.set('json spaces', 2);
    const { express: expected, fast } = await both(server, 'get', 'pet');
    expect(fast).toEqual(expected);
    expect(handled).toEqual([false]);
  });
});
