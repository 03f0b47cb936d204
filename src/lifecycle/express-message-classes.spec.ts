import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { haveSameMap } from '../../test/support/v8-natives.js';
import { takesHeadLines } from '../shared/http/head-lines.js';
import { expressMessageClasses } from './express-message-classes.js';

interface Seen {
  readonly req: Request;
  readonly res: Response;
}

/** An Express app on a server built with `classes` (or Node's own), and what each request met. */
async function serve(withClasses: boolean): Promise<{ server: Server; seen: Seen[]; app: express.Express }> {
  const app = express();
  const seen: Seen[] = [];
  app.get('/echo', (req, res) => {
    seen.push({ req, res });
    res.set('X-Host', req.get('host')).json({ query: req.query, app: req.app === app, path: req.path });
  });
  const options = withClasses ? expressMessageClasses(app) : {};
  const server = createServer(options, app);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { server, seen, app };
}

async function get(server: Server, path: string): Promise<{ status: number; host: string | null; body: unknown }> {
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, host: response.headers.get('x-host'), body: await response.json() };
}

describe('expressMessageClasses', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
  });

  it('builds requests and responses with the app’s prototypes, so Express’s helpers work as before', async () => {
    const { server, seen, app } = await serve(true);
    servers.push(server);
    const answer = await get(server, '/echo?a=1');
    expect(answer).toEqual({
      status: 200,
      host: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
      body: { query: { a: '1' }, app: true, path: '/echo' },
    });
    const [{ req, res }] = seen;
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
    expect(takesHeadLines(res)).toBe(true); // the service's own header fields as head lines
    expect(res.req).toBe(req);
  });

  it('leaves every request and response of a route with one hidden class', async () => {
    const { server, seen } = await serve(true);
    servers.push(server);
    for (let i = 0; i < 4; i += 1) await get(server, `/echo?i=${i}`);
    const [first, ...others] = seen;
    for (const { req, res } of others) {
      expect(haveSameMap(first.req, req)).toBe(true);
      expect(haveSameMap(first.res, res)).toBe(true);
    }
  });

  it('is needed: on Node’s own classes, Express gives each request a hidden class of its own', async () => {
    const { server, seen } = await serve(false);
    servers.push(server);
    for (let i = 0; i < 3; i += 1) await get(server, `/echo?i=${i}`);
    expect(haveSameMap(seen[1].req, seen[2].req)).toBe(false);
  });
});
