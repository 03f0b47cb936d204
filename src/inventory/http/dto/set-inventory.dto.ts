import { IsInt, Max, Min } from 'class-validator';

export const MAX_STOCK = 1_000_000;

/** What PUT /store/inventory/{petId} accepts (documented as the seed's InventoryUpdate). */
export class SetInventoryDto {
  @IsInt()
  @Min(0)
  @Max(MAX_STOCK)
  quantity!: number;
}
