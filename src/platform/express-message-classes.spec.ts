import express from 'express';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressMessageClasses } from './express-message-classes.js';

/** GET `path` on `server`, the body as text. */
function get(server: Server, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    request({ port, path }, (res: IncomingMessage) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

describe('expressMessageClasses', () => {
  it("makes requests and responses that already carry the app's prototypes when Express sets them", async () => {
    const app = express();
    const classes = expressMessageClasses(app);
    const seen: Record<string, boolean> = {};
    app.get('/probe', (req, res) => {
      // Express has set the prototypes by now: if it ever used other objects than app.request/app.response,
      // the requests would again change prototype per request (and this fails).
      seen.request = Object.getPrototypeOf(req) === classes.IncomingMessage.prototype;
      seen.response = Object.getPrototypeOf(res) === classes.ServerResponse.prototype;
      seen.helpers = req.get('host') !== undefined && req.app === app && typeof res.json === 'function';
      res.json({ ok: true });
    });
    const server = createServer(classes, (req, res) => {
      // Before Express: born with the app's prototypes, so Express's own setPrototypeOf changes nothing.
      seen.bornRequest = Object.getPrototypeOf(req) === app.request;
      seen.bornResponse = Object.getPrototypeOf(res) === app.response;
      app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(await get(server, '/probe')).toBe('{"ok":true}');
    } finally {
      server.close();
    }
    expect(seen).toEqual({ bornRequest: true, bornResponse: true, request: true, response: true, helpers: true });
  });

  it('keeps what is added to app.request afterwards visible on every request', async () => {
    const app = express();
    const classes = expressMessageClasses(app);
    Object.defineProperty(app.request, 'greeting', { get: () => 'hello', configurable: true });
    app.get('/', (req, res) => res.send((req as unknown as { greeting: string }).greeting));
    const server = createServer(classes, app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(await get(server, '/')).toBe('hello');
    } finally {
      server.close();
    }
  });
});
