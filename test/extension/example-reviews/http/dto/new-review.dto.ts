import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, NotContains } from 'class-validator';

@ApiSchema({ name: 'ExampleNewReview' })
export class NewReviewDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 5, example: 5 })
  @IsInt()
  @Min(1)
  @Max(5)
  rating!: number;

  @ApiPropertyOptional({ maxLength: 500, example: 'Calm, friendly and house-trained.' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @NotContains('<', { message: 'comment must not contain markup' })
  comment?: string;
}
