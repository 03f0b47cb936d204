import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { routeLayers } from '@petstore/errors';
import { type IndexedRoutes, indexRouteRuns } from './route-index.js';

type Router = Parameters<typeof indexRouteRuns>[0];

/** An app whose answers say which route served a request, with what params. */
function app(indexed: boolean): Express {
  const server = express();
  const answer = (name: string) => (req: Request, res: Response) => {
    res.json({ name, route: (req.route as { path: string }).path, params: req.params });
  };
  server.use((req, res, next) => (req.path === '/stop' ? res.status(418).end() : next()));
  server.get('/:kind/first', answer('wild-first'));
  server.get('/pets', answer('list'));
  server.get('/pets/first', answer('literal-first'));
  server.post('/pets', answer('create'));
  server.get('/pets/:petId', (req, res, next) => (req.params.petId === 'skip' ? next('route') : next()));
  server.get('/pets/:petId', answer('get'));
  server.delete('/pets/:petId', answer('delete'));
  server.get('/pets/:petId/photos', answer('photos'));
  server.get('/store/orders/:orderId', answer('order'));
  server.get('/boom', () => {
    throw new Error('boom');
  });
  server.get('/:anything/echo', answer('echo'));
  server.use('/docs', (req, res) => res.status(202).send('docs'));
  server.get('/docs/index.html', answer('shadowed'));
  server.get('/health', answer('health'));
  server.all('/any', answer('all'));
  if (indexed) indexRouteRuns(server.router as unknown as Router);
  server.use((req: Request, res: Response) => res.status(404).json({ path: req.path, method: req.method }));
  server.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ error: error.message });
  });
  return server;
}

const REQUESTS: Array<[string, string]> = [
  ['GET', '/pets'],
  ['GET', '/pets/'],
  ['GET', '/PETS'],
  ['POST', '/pets'],
  ['PUT', '/pets'],
  ['GET', '/pets/7'],
  ['GET', '/pets/skip'],
  ['DELETE', '/pets/7'],
  ['HEAD', '/pets/7'],
  ['GET', '/pets/7/photos'],
  ['GET', '/pets/a%20b'],
  ['GET', '/pets/%zz'],
  ['GET', '/store/orders/9'],
  ['GET', '/store'],
  ['GET', '/boom'],
  ['GET', '/cats/echo'],
  ['GET', '/pets/echo'],
  ['GET', '/pets/first'],
  ['GET', '/cats/first'],
  ['GET', '/docs'],
  ['GET', '/docs/index.html'],
  ['GET', '/health'],
  ['PATCH', '/any'],
  ['GET', '/stop'],
  ['GET', '/'],
  ['GET', '/nope/deeper'],
  ['OPTIONS', '/pets'],
];

describe('indexRouteRuns', () => {
  const plain = app(false);
  const indexed = app(true);

  it.each(REQUESTS)('answers %s %s as the unindexed router does', async (method, path) => {
    const send = (server: Express) => request(server)[method.toLowerCase() as 'get'](path);
    const [expected, actual] = await Promise.all([send(plain), send(indexed)]);
    expect({ status: actual.status, body: actual.body as unknown, text: actual.text }).toEqual({
      status: expected.status,
      body: expected.body as unknown,
      text: expected.text,
    });
  });

  it('replaces each run of routes with one layer that keeps them, in order', () => {
    const stack = (indexed.router as unknown as Router).stack;
    const runs = stack.filter((layer) => Array.isArray((layer as { handle?: IndexedRoutes }).handle?.layers));
    expect(runs.map((layer) => (layer as unknown as { handle: IndexedRoutes }).handle.layers.length)).toEqual([11, 3]);
    expect(stack.some((layer) => layer.route !== undefined)).toBe(false);
  });

  it('keeps every route visible to routeLayers (405 answers, plan exemptions), in router order', () => {
    const paths = (server: Express) =>
      routeLayers((server.router as unknown as Router).stack).map((layer) => layer.route?.path);
    expect(paths(indexed)).toEqual(paths(plain));
    expect(paths(indexed)).toHaveLength(14);
  });

  it('leaves a router with app.param() callbacks as it is', () => {
    const server = express();
    server.param('id', (_req, _res, next) => next());
    server.get('/a/:id', () => undefined);
    server.get('/b/:id', () => undefined);
    const before = [...(server.router as unknown as Router).stack];
    indexRouteRuns(server.router as unknown as Router);
    expect((server.router as unknown as Router).stack).toEqual(before);
  });
});
