import { createValidationPipe } from './validation.pipe.js';
import { PageQuery } from './page.query.js';

const pipe = createValidationPipe();
const parse = (value: object) =>
  pipe.transform(Object.assign(Object.create(null) as object, value), { type: 'query', metatype: PageQuery });

describe('PageQuery', () => {
  it.each([
    [{}, {}],
    [
      { limit: '100', cursor: 'MTA' },
      { limit: 100, cursor: 'MTA' },
    ],
  ])('accepts %j', async (query, expected) => {
    await expect(parse(query)).resolves.toStrictEqual(Object.assign(new PageQuery(), expected));
  });
});
