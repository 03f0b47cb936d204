import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Order } from '../../domain/order.js';

/**
 * The seed's Order schema: no field is required in the document (it also documents
 * the body of POST /store/orders, which `PlaceOrderDto` validates).
 */
@ApiSchema({ name: 'Order', description: 'An order for units of a pet' })
export class OrderResponse {
  @ApiPropertyOptional({
    description: 'Unique order identifier',
    type: 'integer',
    format: 'int64',
    readOnly: true,
    example: 1,
  })
  id?: number;

  @ApiPropertyOptional({ description: 'ID of the animal in this order', type: 'integer', format: 'int64', example: 1 })
  petId?: number;

  @ApiPropertyOptional({
    description: 'Number of units ordered',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 1000,
    example: 2,
  })
  quantity?: number;

  @ApiPropertyOptional({
    description: 'Expected or actual ship date',
    type: 'string',
    format: 'date-time',
    example: '2026-11-21T10:00:00.000Z',
  })
  shipDate?: string;

  // Read-only: POST /store/orders refuses it (an order is completed by PATCH), as it refuses `id`.
  @ApiPropertyOptional({
    description: 'Whether the order has been fulfilled',
    type: 'boolean',
    example: false,
    readOnly: true,
  })
  complete?: boolean;

  /** The owner stays internal; an unset ship date is omitted. */
  static from(this: void, order: Order): OrderResponse {
    const response = Object.assign(new OrderResponse(), {
      id: order.id,
      petId: order.petId,
      quantity: order.quantity,
      complete: order.complete,
    });
    if (order.shipDate) response.shipDate = order.shipDate.toISOString();
    return response;
  }
}
