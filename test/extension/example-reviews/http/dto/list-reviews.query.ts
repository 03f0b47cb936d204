import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQuery } from '../../../../../src/shared/http/page.query.js';
import type { ReviewFilter } from '../../application/reviews.service.js';

export class ListReviewsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only reviews of this pet', type: 'integer', format: 'int64', minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  petId?: number;

  @ApiPropertyOptional({
    description: 'Only reviews with at least this rating',
    type: 'integer',
    minimum: 1,
    maximum: 5,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5)
  minRating?: number;

  toFilter(): ReviewFilter {
    return { petId: this.petId, minRating: this.minRating };
  }
}
