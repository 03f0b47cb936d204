import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PET_STATUS_SCHEMA } from '../../../pets/index.js';

@ApiSchema({ name: 'InventoryItem', description: 'Stock of one pet' })
export class InventoryItemDto {
  @ApiProperty({ description: 'ID of the animal this entry tracks', type: 'integer', format: 'int64', example: 1 })
  petId!: number;

  @ApiProperty({ description: 'Current stock count', type: 'integer', format: 'int32', minimum: 0, example: 12 })
  quantity!: number;

  @ApiProperty(PET_STATUS_SCHEMA)
  status!: string;
}

@ApiSchema({ name: 'InventoryUpdate', description: 'A new stock count' })
export class InventoryUpdateDto {
  @ApiProperty({
    description: 'The new stock count',
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 1_000_000,
    example: 12,
  })
  quantity!: number;
}
