import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { ListOrdersQuery } from './list-orders.query.js';

const pipe = createValidationPipe();
const parse = (value: object) =>
  pipe.transform(Object.assign(Object.create(null) as object, value), { type: 'query', metatype: ListOrdersQuery });

describe('ListOrdersQuery', () => {
  it.each([
    [{}, {}],
    [
      { petId: '7', complete: 'false' },
      { petId: 7, complete: false },
    ],
  ])('accepts %j', async (query, expected) => {
    await expect(parse(query)).resolves.toStrictEqual(Object.assign(new ListOrdersQuery(), expected));
  });
});
