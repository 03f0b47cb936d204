import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** The seed's Order schema: no field is required in the document. */
@ApiSchema({ name: 'Order', description: 'An order for units of a pet' })
export class OrderDto {
  @ApiPropertyOptional({ description: 'Unique order identifier', type: 'integer', format: 'int64', readOnly: true })
  id?: number;

  @ApiPropertyOptional({ description: 'ID of the animal in this order', type: 'integer', format: 'int64' })
  petId?: number;

  @ApiPropertyOptional({ description: 'Number of units ordered', type: 'integer', format: 'int32' })
  quantity?: number;

  @ApiPropertyOptional({ description: 'Expected or actual ship date', type: 'string', format: 'date-time' })
  shipDate?: string;

  @ApiPropertyOptional({ description: 'Whether the order has been fulfilled', type: 'boolean' })
  complete?: boolean;
}
