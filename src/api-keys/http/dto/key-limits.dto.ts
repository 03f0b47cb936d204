import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

const MAX_LIMIT = 1_000_000_000;

@ApiSchema({ name: 'KeyLimits', description: 'Per-key quota of an enterprise key' })
export class KeyLimitsDto {
  @ApiProperty({
    description: 'Requests allowed per minute',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_LIMIT,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  perMinute!: number;

  @ApiProperty({
    description: 'Requests allowed per day',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_LIMIT,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  perDay!: number;
}
