import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { KeyUsageQuery } from './key-usage.query.js';

const pipe = createValidationPipe();
const parse = (value: object) =>
  pipe.transform(Object.assign(Object.create(null) as object, value), { type: 'query', metatype: KeyUsageQuery });

describe('KeyUsageQuery', () => {
  it.each([{}, { from: '2026-11-01', to: '2026-11-23' }])('accepts %j as it is', async (query) => {
    await expect(parse(query)).resolves.toStrictEqual(Object.assign(new KeyUsageQuery(), query));
  });
});
