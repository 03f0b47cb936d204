import type { Request } from 'express';
import { allowedMethods } from './allowed-methods.js';
import { matchingRoutes } from './matching-routes.js';

/** An app whose router has one route, `/pets/:petId`, that counts how often the router's walk asks it. */
function countingApp() {
  const asked: string[] = [];
  const route = {
    route: { path: '/pets/:petId', methods: { get: true, put: true } },
    match: (path: string) => {
      asked.push(path);
      return /^\/pets\/[^/]+$/.test(path);
    },
  };
  const app = { router: { stack: [{ match: () => true }, route] } };
  const request = (method: string, path: string) => ({ method, path, app }) as unknown as Request;
  return { asked, request };
}

describe('matchingRoutes', () => {
  it('is the routes whose path matches, whatever their methods', () => {
    const { request } = countingApp();
    expect(matchingRoutes(request('DELETE', '/pets/7'))).toEqual([
      { path: '/pets/:petId', methods: { get: true, put: true } },
    ]);
    expect(matchingRoutes(request('GET', '/owls'))).toEqual([]);
    expect(matchingRoutes({ method: 'GET', path: '/pets/7', app: {} } as unknown as Request)).toEqual([]);
  });

  it('walks the router once per path, for any method, answers included that no route serves', () => {
    const { asked, request } = countingApp();
    for (const method of ['GET', 'PUT', 'DELETE', 'GET']) {
      expect(matchingRoutes(request(method, '/pets/7'))).toHaveLength(1);
      expect(matchingRoutes(request(method, '/owls'))).toHaveLength(0);
    }
    expect(allowedMethods(request('POST', '/pets/7'))).toEqual(['GET', 'HEAD', 'PUT']);
    expect(asked).toEqual(['/pets/7', '/owls']);
    matchingRoutes(request('GET', '/pets/8'));
    expect(asked).toEqual(['/pets/7', '/owls', '/pets/8']);
  });

  it('never answers for one router from what another said', () => {
    const first = countingApp();
    const second = countingApp();
    matchingRoutes(first.request('GET', '/pets/7'));
    expect(matchingRoutes(second.request('GET', '/pets/7'))).toHaveLength(1);
    expect(second.asked).toEqual(['/pets/7']);
  });

  it('walks the router every time for a long path, which it does not remember', () => {
    const { asked, request } = countingApp();
    const long = `/pets/${'x'.repeat(300)}`;
    matchingRoutes(request('GET', long));
    expect(matchingRoutes(request('GET', long))).toHaveLength(1);
    expect(asked).toHaveLength(2);
  });

  it('gives answers no caller can change for the next', () => {
    const { request } = countingApp();
    const routes = matchingRoutes(request('GET', '/pets/9'));
    expect(Object.isFrozen(routes)).toBe(true);
  });
});
