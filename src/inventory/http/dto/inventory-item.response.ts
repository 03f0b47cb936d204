import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PET_STATUS_SCHEMA } from '../../../pets/index.js';
import type { InventoryItem } from '../../domain/inventory.repository.js';

@ApiSchema({ name: 'InventoryItem', description: 'Stock of one pet' })
export class InventoryItemResponse {
  @ApiProperty({ description: 'ID of the animal this entry tracks', type: 'integer', format: 'int64', example: 1 })
  petId!: number;

  @ApiProperty({ description: 'Current stock count', type: 'integer', format: 'int32', minimum: 0, example: 12 })
  quantity!: number;

  @ApiProperty(PET_STATUS_SCHEMA)
  status!: string;

  static from(this: void, item: InventoryItem): InventoryItemResponse {
    return Object.assign(new InventoryItemResponse(), {
      petId: item.petId,
      quantity: item.quantity,
      status: item.status,
    });
  }
}
