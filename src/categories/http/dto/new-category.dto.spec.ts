import type { ArgumentMetadata } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/errors';
import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { NewCategoryDto } from './new-category.dto.js';

const pipe = createValidationPipe();
const body: ArgumentMetadata = { type: 'body', metatype: NewCategoryDto };

describe('createValidationPipe on NewCategory', () => {
  it.each([{ name: 'Dogs' }, { name: 'Dogs', description: 'Loyal companions' }])(
    'accepts %j as it is',
    async (value) => {
      await expect(pipe.transform(value, body)).resolves.toStrictEqual(Object.assign(new NewCategoryDto(), value));
    },
  );

  it('takes a description of up to 500 characters, not 501', async () => {
    await expect(pipe.transform({ name: 'Dogs', description: 'd'.repeat(500) }, body)).resolves.toBeInstanceOf(
      NewCategoryDto,
    );
    const refused = pipe.transform({ name: 'Dogs', description: 'd'.repeat(501) }, body);
    await expect(refused).rejects.toBeInstanceOf(ValidationFailedError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    await expect(refused).rejects.toThrow(/description/);
  });
});
