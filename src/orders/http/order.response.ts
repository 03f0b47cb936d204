import type { Order } from '../domain/order.js';
import { OrderDto } from './dto/order.dto.js';

/** The Order schema as sent: the owner stays internal; an unset ship date is omitted. */
export function toOrderResponse(order: Order): OrderDto {
  const response: OrderDto = Object.assign(new OrderDto(), {
    id: order.id,
    petId: order.petId,
    quantity: order.quantity,
    complete: order.complete,
  });
  if (order.shipDate) response.shipDate = order.shipDate.toISOString();
  return response;
}
