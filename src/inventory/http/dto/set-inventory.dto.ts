import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

export const MAX_STOCK = 1_000_000;

/** What PUT /store/inventory/{petId} accepts. */
@ApiSchema({ name: 'InventoryUpdate', description: 'A new stock count' })
export class SetInventoryDto {
  @ApiProperty({
    description: 'The new stock count',
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_STOCK,
    example: 12,
  })
  @IsInt()
  @Min(0)
  @Max(MAX_STOCK)
  quantity!: number;
}
