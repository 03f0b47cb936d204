import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Equals, IsDateString } from 'class-validator';
import { OptionalButNotNull } from '../../../shared/http/not-null.decorator.js';

@ApiSchema({ name: 'OrderCompletion', description: 'Fulfils an order; completion is one-way' })
export class CompleteOrderDto {
  @ApiProperty({ description: 'Must be true', enum: [true], type: 'boolean' })
  @Equals(true, { message: 'complete must be true (completion cannot be undone)' })
  complete!: boolean;

  @ApiPropertyOptional({ description: 'Actual ship date; defaults to now', type: 'string', format: 'date-time' })
  @OptionalButNotNull()
  @IsDateString({ strict: true, strictSeparator: true })
  shipDate?: string;
}
