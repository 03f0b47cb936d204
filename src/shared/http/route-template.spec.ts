import { RouteCatalog } from '@petstore/errors';
import type { Request } from 'express';
import { routeTemplate } from './route-template.js';

const catalog = new RouteCatalog([
  { method: 'GET', path: '/pets' },
  { method: 'POST', path: '/pets' },
  { method: 'GET', path: '/pets/:petId' },
  { method: 'PUT', path: '/pets/:petId' },
  { method: 'GET', path: '/metrics' },
]);

function req(method: string, path: string, route?: { path: string }): Request {
  return { method, path, route, app: { locals: { routeCatalog: catalog } } } as unknown as Request;
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

  it('has none for a path no route serves, or a method the path does not take', () => {
    expect(routeTemplate(req('GET', '/nope/123'))).toBeUndefined();
    expect(routeTemplate(req('DELETE', '/pets'))).toBeUndefined();
  });

  it('has none before the app knows its routes', () => {
    expect(routeTemplate({ method: 'GET', path: '/pets', app: { locals: {} } } as unknown as Request)).toBeUndefined();
  });
});
