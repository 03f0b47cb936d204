import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { CompleteOrderDto } from './complete-order.dto.js';

const pipe = createValidationPipe();

describe('CompleteOrderDto (PATCH /store/orders/{orderId} body)', () => {
  it.each([{ complete: true }, { complete: true, shipDate: '2026-11-21T10:00:00Z' }])(
    'accepts %j as it is',
    async (body) => {
      await expect(pipe.transform(body, { type: 'body', metatype: CompleteOrderDto })).resolves.toStrictEqual(
        Object.assign(new CompleteOrderDto(), body),
      );
    },
  );
});
