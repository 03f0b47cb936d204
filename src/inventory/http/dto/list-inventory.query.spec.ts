import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { ListInventoryQuery } from './list-inventory.query.js';

const pipe = createValidationPipe();
const parse = (value: object) =>
  pipe.transform(Object.assign(Object.create(null) as object, value), { type: 'query', metatype: ListInventoryQuery });

describe('ListInventoryQuery', () => {
  it.each([
    [{}, {}],
    [{ status: 'sold' }, { status: ['sold'] }],
  ])('accepts %j', async (query, expected) => {
    await expect(parse(query)).resolves.toStrictEqual(Object.assign(new ListInventoryQuery(), expected));
  });
});
