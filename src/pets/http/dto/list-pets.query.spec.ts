import { ValidationFailedError } from '@petstore/errors';
import fc from 'fast-check';
import { encodeCursor } from '../../../shared/paging/cursor.js';
import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { ListPetsQuery, MAX_IDS_PER_QUERY } from './list-pets.query.js';

/** A query string as Express hands it over: a string per parameter, an array when repeated. */
type RawQuery = Record<string, string | string[]>;

const pipe = createValidationPipe();

function parse(query: RawQuery): Promise<ListPetsQuery> {
  return pipe.transform(query, { type: 'query', metatype: ListPetsQuery }) as Promise<ListPetsQuery>;
}

async function rejection(query: RawQuery): Promise<string> {
  const outcome = await parse(query).then(
    (accepted: unknown) => ({ accepted }),
    (error: unknown) => ({ error }),
  );
  if ('accepted' in outcome) {
    throw new Error(
      `expected 400 VALIDATION_FAILED, but ${JSON.stringify(query)} was accepted as ${JSON.stringify(outcome.accepted)}`,
    );
  }
  const { error } = outcome;
  expect(error).toBeInstanceOf(ValidationFailedError);
  expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  return (error as Error).message;
}

describe('ListPetsQuery', () => {
  it.each([
    [{ id: '500000' }, { id: [500000] }],
    [{ id: ['3', '1', '2'] }, { id: [3, 1, 2] }],
    [
      { status: ['available', 'pending'], categoryId: '3', limit: '20', cursor: 'MTA' },
      { status: ['available', 'pending'], categoryId: 3, limit: 20, cursor: 'MTA' },
    ],
  ])('accepts %j as a query-parser object', async (query, expected) => {
    const value = Object.assign(Object.create(null) as object, query) as RawQuery;
    await expect(parse(value)).resolves.toStrictEqual(Object.assign(new ListPetsQuery(), expected));
  });

  it('has no filters and the default page without parameters', async () => {
    const query = await parse({});
    expect(query.toFilter()).toEqual({ statuses: undefined, categoryId: undefined, ids: undefined });
    expect(query.toPageRequest()).toEqual({ limit: 20, afterId: null });
  });

  describe('status', () => {
    it('takes a single value as a list of one', async () => {
      expect((await parse({ status: 'sold' })).toFilter().statuses).toEqual(['sold']);
    });

    it('is repeatable', async () => {
      expect((await parse({ status: ['available', 'pending'] })).toFilter().statuses).toEqual(['available', 'pending']);
    });

    it('rejects an unknown status among valid ones, naming the parameter', async () => {
      expect(await rejection({ status: ['available', 'lost'] })).toContain('status');
    });

    it('rejects an empty value', async () => {
      expect(await rejection({ status: '' })).toContain('status');
    });
  });

  describe('categoryId', () => {
    it('parses a plain integer', async () => {
      expect((await parse({ categoryId: '3' })).toFilter().categoryId).toBe(3);
    });

    it.each(['0', '-1', '1.5', '1e3', 'abc', '', ' 1', '+1', '0x10', '9007199254740992', '12345678901234567'])(
      'rejects %j',
      async (value) => {
        expect(await rejection({ categoryId: value })).toContain('categoryId');
      },
    );

    it('is not repeatable', async () => {
      expect(await rejection({ categoryId: ['1', '2'] })).toContain('categoryId');
    });
  });

  describe('id', () => {
    it('takes a single value as a list of one', async () => {
      expect((await parse({ id: '42' })).toFilter().ids).toEqual([42]);
    });

    it('is repeatable', async () => {
      expect((await parse({ id: ['3', '1', '2'] })).toFilter().ids).toEqual([3, 1, 2]);
    });

    it('parses any safe positive integer', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { minLength: 1 }),
          async (ids) => {
            const query = await parse({ id: ids.map(String) });
            expect(query.toFilter().ids).toEqual(ids);
          },
        ),
        { numRuns: 50 },
      );
    });

    it.each(['0', '-1', '1.5', '1e3', 'abc', '', ' 1', '1 ', '+1', '9007199254740992', '12345678901234567'])(
      'rejects %j',
      async (value) => {
        expect(await rejection({ id: ['1', value] })).toContain('id');
      },
    );

    it('rejects a leading zero, as GET /pets/{petId} (which it succeeds) does', async () => {
      expect(await rejection({ id: '01' })).toContain('id');
    });

    it(`accepts ${MAX_IDS_PER_QUERY} ids`, async () => {
      const ids = Array.from({ length: MAX_IDS_PER_QUERY }, (_, i) => String(i + 1));
      expect((await parse({ id: ids })).toFilter().ids).toHaveLength(MAX_IDS_PER_QUERY);
    });

    it(`rejects more than ${MAX_IDS_PER_QUERY} ids`, async () => {
      const ids = Array.from({ length: MAX_IDS_PER_QUERY + 1 }, (_, i) => String(i + 1));
      expect(await rejection({ id: ids })).toContain('id');
    });
  });

  describe('paging', () => {
    it('reads limit and cursor', async () => {
      const query = await parse({ limit: '5', cursor: encodeCursor(40) });
      expect(query.toPageRequest()).toEqual({ limit: 5, afterId: 40 });
    });

    it.each(['0', '101', '-1', '2.5', 'ten', ''])('rejects limit=%j', async (value) => {
      expect(await rejection({ limit: value })).toContain('limit');
    });

    it('accepts limit 1 and 100', async () => {
      expect((await parse({ limit: '1' })).toPageRequest().limit).toBe(1);
      expect((await parse({ limit: '100' })).toPageRequest().limit).toBe(100);
    });

    it('rejects a cursor that is not one of ours when the page request is made', async () => {
      const query = await parse({ cursor: 'garbage!' });
      expect(() => query.toPageRequest()).toThrow(ValidationFailedError);
      expect(() => query.toPageRequest()).toThrow('cursor');
    });

    it('rejects an over-long cursor', async () => {
      expect(await rejection({ cursor: 'A'.repeat(65) })).toContain('cursor');
    });
  });

  it('combines every filter', async () => {
    const query = await parse({ status: ['sold'], categoryId: '2', id: ['7', '8'] });
    expect(query.toFilter()).toEqual({ statuses: ['sold'], categoryId: 2, ids: [7, 8] });
  });

  it('names every offending parameter at once', async () => {
    const message = await rejection({ status: 'lost', categoryId: 'x', id: 'y', limit: '0' });
    for (const name of ['status', 'categoryId', 'id', 'limit']) expect(message).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('rejects unknown parameters', async () => {
    expect(await rejection({ petId: '1' })).toContain('petId is not an allowed field');
  });
});
