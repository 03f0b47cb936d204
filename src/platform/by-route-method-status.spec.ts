import { ByRouteMethodStatus } from './by-route-method-status.js';

describe('ByRouteMethodStatus', () => {
  it('keeps a value per route, method and status, apart from every other', () => {
    const kept = new ByRouteMethodStatus<string>();
    kept.set('/pets', 'GET', 200, 'a');
    kept.set('/pets', 'GET', 304, 'b');
    kept.set('/pets', 'POST', 200, 'c');
    kept.set('/pets/:petId', 'GET', 200, 'd');
    expect(
      [
        ['/pets', 'GET', 200],
        ['/pets', 'GET', 304],
        ['/pets', 'POST', 200],
        ['/pets/:petId', 'GET', 200],
        ['/pets', 'GET', 404],
      ].map(([route, method, status]) => kept.get(route as string, method as string, status as number)),
    ).toEqual(['a', 'b', 'c', 'd', undefined]);
  });

  it('forgets everything on clear', () => {
    const kept = new ByRouteMethodStatus<number>();
    kept.set('/pets', 'GET', 200, 1);
    kept.clear();
    expect(kept.get('/pets', 'GET', 200)).toBeUndefined();
  });
});
