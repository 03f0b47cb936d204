import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { SetInventoryDto } from './set-inventory.dto.js';

const pipe = createValidationPipe();

describe('SetInventoryDto (PUT /store/inventory/{petId} body)', () => {
  it.each([{ quantity: 0 }, { quantity: 12 }])('accepts %j as it is', async (body) => {
    await expect(pipe.transform(body, { type: 'body', metatype: SetInventoryDto })).resolves.toStrictEqual(
      Object.assign(new SetInventoryDto(), body),
    );
  });
});
