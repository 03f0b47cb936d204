import { IsDateString, IsInt, Max, Min } from 'class-validator';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';
import { MAX_ORDER_QUANTITY, MIN_ORDER_QUANTITY } from '../../domain/order.js';

/**
 * What POST /store/orders accepts. The document shows the seed's Order schema (no
 * required fields); the service still needs `petId` and `quantity`, and `id` and
 * `complete` must be absent (unknown here, so rejected as not allowed).
 */
export class PlaceOrderDto {
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  petId!: number;

  @IsInt()
  @Min(MIN_ORDER_QUANTITY)
  @Max(MAX_ORDER_QUANTITY)
  quantity!: number;

  @OptionalButNotNull()
  @IsDateString({ strict: true, strictSeparator: true })
  shipDate?: string;
}
