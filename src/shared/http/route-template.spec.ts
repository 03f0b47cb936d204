import { RouteCatalog } from '@petstore/errors';
import type { Request } from 'express';
import { routeTemplate } from './route-template.js';

const catalog = new RouteCatalog([
  { method: 'GET', path: '/pets' },
  { method: 'POST', path: '/pets' },
  { method: 'GET', path: '/pets/:petId' },
  { method: 'PUT', path: '/pets/:petId' },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/console/{*path}' },
]);

/** A request as Express gives it: `originalUrl` the whole target, `path` the part below the mount point, if any. */
function req(method: string, path: string, route?: { path: string }, originalUrl = path): Request {
  return { method, path, originalUrl, route, app: { locals: { routeCatalog: catalog } } } as unknown as Request;
}

describe('routeTemplate', () => {
  it('is the matched route of a routed request', () => {
    expect(routeTemplate(req('GET', '/pets/7', { path: '/pets/:petId' }))).toBe('/pets/:petId');
  });

  it('finds the route a request refused before routing was for (e.g. a 429)', () => {
    expect(routeTemplate(req('PUT', '/pets/12'))).toBe('/pets/:petId');
    expect(routeTemplate(req('POST', '/pets'))).toBe('/pets');
  });

  it('finds the route of a file that a middleware mounted on a path served, by the whole path', () => {
    expect(routeTemplate(req('GET', '/assets/index.js', undefined, '/console/assets/index.js?v=1'))).toBe(
      '/console/{*path}',
    );
  });

  it('counts HEAD as GET', () => {
    expect(routeTemplate(req('HEAD', '/metrics'))).toBe('/metrics');
  });

  it('has none for a path no route serves, or a method the path does not take', () => {
    expect(routeTemplate(req('GET', '/nope/123'))).toBeUndefined();
    expect(routeTemplate(req('DELETE', '/pets'))).toBeUndefined();
  });

  it('has none before the app knows its routes', () => {
    const request = { method: 'GET', path: '/pets', originalUrl: '/pets', app: { locals: {} } } as unknown as Request;
    expect(routeTemplate(request)).toBeUndefined();
  });
});
