import fc from 'fast-check';
import { parse } from 'node:querystring';
import { parseQuery } from './query-parser.js';

/** What a parse gives, comparable across realms: its prototype and its entries, in order. */
const seen = (parameters: object) => ({
  prototype: Object.getPrototypeOf(parameters) as unknown,
  entries: Object.entries(parameters),
});

const plainName = fc.stringMatching(/^[\w.~-]{1,12}$/);
const plainValue = fc.stringMatching(/^[\w.~-]{0,12}$/);

describe('parseQuery', () => {
  it('gives what node:querystring gives for plain pairs with distinct names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(plainName, plainValue), { selector: ([name]) => name, maxLength: 8 }),
        (pairs) => {
          const query = pairs.map(([name, value]) => `${name}=${value}`).join('&');
          expect(seen(parseQuery(query))).toEqual(seen(parse(query)));
        },
      ),
    );
  });

  it('gives what node:querystring gives for any query string', () => {
    const character = fc.constantFrom(
      'a',
      'b',
      'Z',
      '0',
      '_',
      '-',
      '.',
      '~',
      '=',
      '&',
      '%',
      '2',
      'F',
      '+',
      ' ',
      'é',
      '[',
      ']',
    );
    fc.assert(
      fc.property(
        fc.array(character, { maxLength: 30 }).map((chars) => chars.join('')),
        (query) => {
          expect(seen(parseQuery(query))).toEqual(seen(parse(query)));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('keeps the API read queries as they are, on an object without a prototype', () => {
    const parameters = parseQuery('categoryId=3&cursor=djE6MTA&limit=20');
    expect(Object.getPrototypeOf(parameters)).toBeNull();
    expect({ ...parameters }).toEqual({ categoryId: '3', cursor: 'djE6MTA', limit: '20' });
  });

  it('makes an array of a repeated name, decodes escapes and +, and reads a name that is an Object method as data', () => {
    expect({ ...parseQuery('status=available&status=sold') }).toEqual({ status: ['available', 'sold'] });
    expect({ ...parseQuery('name=a%20b+c') }).toEqual({ name: 'a b c' });
    expect(Object.entries(parseQuery('__proto__=x&constructor=y'))).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
  });

  it('gives an empty object without a prototype for no query at all', () => {
    for (const query of [undefined, null, '']) {
      const parameters = parseQuery(query);
      expect(Object.getPrototypeOf(parameters)).toBeNull();
      expect(Object.keys(parameters)).toEqual([]);
    }
  });

  it('keeps node:querystring’s limit of 1,000 pairs', () => {
    const query = Array.from({ length: 1_200 }, (_, index) => `k${index}=v`).join('&');
    expect(Object.keys(parseQuery(query))).toHaveLength(1_000);
  });
});
