import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { LoyaltyBalance } from '../domain/loyalty-points.js';

@ApiSchema({ name: 'ExampleLoyaltyPoints', description: "An API key's loyalty points" })
export class LoyaltyPointsResponse {
  @ApiProperty({ description: 'ID of the API key', type: 'integer', format: 'int64', example: 1 })
  keyId!: number;

  @ApiProperty({
    description: 'Points held: 10 per unit ordered, less those of cancelled orders',
    type: 'integer',
    format: 'int32',
    minimum: 0,
    example: 30,
  })
  points!: number;

  static from(this: void, balance: LoyaltyBalance): LoyaltyPointsResponse {
    return Object.assign(new LoyaltyPointsResponse(), balance);
  }
}
