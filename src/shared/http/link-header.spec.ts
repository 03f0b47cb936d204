import fc from 'fast-check';
import { withCursor } from './link-header.js';

/** What the Link header was built from before: URL parsing and `searchParams.set`. */
function viaUrl(url: string, cursor: string): string {
  const parsed = new URL(url, 'http://placeholder');
  parsed.searchParams.set('cursor', cursor);
  return `${parsed.pathname}${parsed.search}`;
}

describe('withCursor', () => {
  it.each([
    '/pets',
    '/pets/',
    '/pets?limit=2',
    '/pets?status=available&limit=2&cursor=djE6Mg',
    '/pets?cursor=a&limit=2&cursor=b',
    '/pets?cursor=&x=1',
    '/store/inventory?limit=1',
    '/pets?',
    '/pets?flag',
    '/pets?a=1&&b=2',
    '/pets?q=a%20b&cursor=x',
    '/pets?q=a+b',
    '/pets/../admin?limit=1',
    '//pets?limit=1',
    '/pets?name=%C3%A9',
    '/PETS?Cursor=x',
    '/pets?a=~&~=b',
  ])('gives %s the link URL parsing would', (url) => {
    expect(withCursor(url, 'djE6MTA')).toBe(viaUrl(url, 'djE6MTA'));
  });

  it('agrees with URL parsing on any request target', () => {
    const char = fc.constantFrom(...'abcAB09._~-=&?%/+ #é'.split(''));
    const target = fc.string({ unit: char, maxLength: 30 }).map((rest) => `/pets${rest}`);
    fc.assert(
      fc.property(target, fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), (url, cursor) => {
        expect(withCursor(url, cursor)).toBe(viaUrl(url, cursor));
      }),
      { numRuns: 20000 },
    );
  });
});
