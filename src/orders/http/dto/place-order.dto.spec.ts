import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { PlaceOrderDto } from './place-order.dto.js';

const pipe = createValidationPipe();

describe('PlaceOrderDto (POST /store/orders body)', () => {
  it.each([
    { petId: 1, quantity: 2 },
    { petId: 1, quantity: 1000, shipDate: '2026-11-21T10:00:00.000Z' },
  ])('accepts %j as it is', async (body) => {
    await expect(pipe.transform(body, { type: 'body', metatype: PlaceOrderDto })).resolves.toStrictEqual(
      Object.assign(new PlaceOrderDto(), body),
    );
  });
});
