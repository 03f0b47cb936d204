import type { Request, Response } from 'express';
import { responseDefaults } from './private-cache.middleware.js';

/** The part of a response the middleware touches. */
class FakeResponse {
  readonly headers = new Map<string, string>();
  getHeader(name: string): string | undefined {
    return this.headers.get(name.toLowerCase());
  }
  setHeader(name: string, value: string): void {
    this.headers.set(name.toLowerCase(), value);
  }
  vary(field: string): void {
    this.headers.set('vary', `${this.headers.get('vary')}, ${field}`);
  }
}

function run(path: string, res = new FakeResponse()): FakeResponse {
  let nexts = 0;
  // No security headers here: only the cache policy's own.
  responseDefaults(['/docs', '/openapi.json'], [], [])({ path } as Request, res as unknown as Response, () => {
    nexts += 1;
  });
  expect(nexts).toBe(1);
  return res;
}

describe('responseDefaults: the private cache policy', () => {
  it.each(['/pets', '/store/orders/1', '/admin/api-keys', '/nope', '/docsx', '/openapi.json.bak', '/health/live'])(
    'marks %s private, varying on the key',
    (path) => {
      const res = run(path);
      expect(res.getHeader('Cache-Control')).toBe('private, no-cache');
      expect(res.getHeader('Vary')).toBe('X-API-Key');
    },
  );

  it.each(['/docs', '/docs/', '/docs/swagger-ui.css', '/openapi.json'])('leaves the public %s alone', (path) => {
    expect([...run(path).headers]).toEqual([]);
  });

  it('appends to a Vary already set', () => {
    const res = new FakeResponse();
    res.setHeader('Vary', 'Origin');
    expect(run('/pets', res).getHeader('Vary')).toBe('Origin, X-API-Key');
  });
});

describe('responseDefaults: the security headers', () => {
  const api = [['X-Frame-Options', 'DENY']] as const;
  const documents = [['X-Frame-Options', 'SAMEORIGIN']] as const;
  const headersOf = (path: string) => {
    const res = new FakeResponse();
    responseDefaults(['/docs'], api, documents)({ path } as Request, res as unknown as Response, () => undefined);
    return res;
  };

  it.each(['/pets', '/nope', '/docsx'])('gives %s the API’s', (path) => {
    expect(headersOf(path).getHeader('X-Frame-Options')).toBe('DENY');
  });

  it.each(['/docs', '/docs/swagger-ui.css'])('gives the documentation’s %s those made for HTML', (path) => {
    expect(headersOf(path).getHeader('X-Frame-Options')).toBe('SAMEORIGIN');
  });
});
