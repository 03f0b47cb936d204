import type { Request } from 'express';
import { routeTemplate } from './route-template.js';

/** An Express route layer as the router keeps it. */
function layer(path: string, methods: string[], matches: (p: string) => boolean) {
  return { route: { path, methods: Object.fromEntries(methods.map((m) => [m, true])) }, match: matches };
}

const stack = [
  { match: () => true }, // middleware: no route
  layer('/pets', ['get', 'post'], (p) => p === '/pets'),
  layer('/pets/:petId', ['get', 'put'], (p) => /^\/pets\/[^/]+$/.test(p)),
  layer('/metrics', ['get'], (p) => p === '/metrics'),
  layer('/boom', ['get'], () => {
    throw new URIError('URI malformed');
  }),
];

function req(method: string, path: string, route?: { path: string }): Request {
  return { method, path, route, app: { router: { stack } } } as unknown as Request;
}

describe('routeTemplate', () => {
  it('is the matched route of a routed request', () => {
    expect(routeTemplate(req('GET', '/pets/7', { path: '/pets/:petId' }))).toBe('/pets/:petId');
  });

  it('finds the route a request refused before routing was for (e.g. a 429)', () => {
    expect(routeTemplate(req('PUT', '/pets/12'))).toBe('/pets/:petId');
    expect(routeTemplate(req('POST', '/pets'))).toBe('/pets');
  });

  it('counts HEAD as GET', () => {
    expect(routeTemplate(req('HEAD', '/metrics'))).toBe('/metrics');
  });

  it('has none for a path no route serves, a method the path does not take, or an unparseable path', () => {
    expect(routeTemplate(req('GET', '/nope/123'))).toBeUndefined();
    expect(routeTemplate(req('DELETE', '/pets'))).toBeUndefined();
    expect(routeTemplate(req('GET', '/boom'))).toBeUndefined();
  });

  it('has none before the app has a router', () => {
    expect(routeTemplate({ method: 'GET', path: '/pets', app: {} } as unknown as Request)).toBeUndefined();
  });
});
