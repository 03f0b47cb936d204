import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PET_STATUS_SCHEMA } from '../../../pets/index.js';

@ApiSchema({
  name: 'OrderEventData',
  description: 'The order of an `order.placed`, `order.completed` or `order.cancelled` event',
})
export class OrderEventDataSchema {
  @ApiProperty({ type: 'integer', format: 'int64', example: 7 })
  orderId!: number;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  petId!: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 2 })
  quantity!: number;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'On `order.completed` only',
    example: '2026-11-21T10:00:00.000Z',
  })
  shipDate?: string;
}

@ApiSchema({
  name: 'InventoryChangedData',
  description: "A pet's units in stock changed, with its status before and after",
})
export class InventoryChangedDataSchema {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  petId!: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 3 })
  oldQuantity!: number;

  @ApiProperty({ type: 'integer', format: 'int32', example: 1 })
  newQuantity!: number;

  @ApiProperty({ ...PET_STATUS_SCHEMA })
  oldStatus!: string;

  @ApiProperty({ ...PET_STATUS_SCHEMA })
  newStatus!: string;
}

@ApiSchema({ name: 'PetStatusChangedData', description: "A pet's status changed (by staff or by the store rules)" })
export class PetStatusChangedDataSchema {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  petId!: number;

  @ApiProperty({ ...PET_STATUS_SCHEMA })
  oldStatus!: string;

  @ApiProperty({ ...PET_STATUS_SCHEMA })
  newStatus!: string;
}

@ApiSchema({ name: 'PingData', description: 'The endpoint a `ping` (`POST /webhooks/{webhookId}/test`) was sent to' })
export class PingDataSchema {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  webhookId!: number;
}
