import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQuery } from '../../../shared/http/page.query.js';
import { QueryArray, QueryInt, toStrictInt } from '../../../shared/http/query-transforms.js';
import type { PetFilter } from '../../domain/pet.repository.js';
import { PET_STATUSES, type PetStatus } from '../../domain/pet-status.js';
import { PET_STATUS_SCHEMA } from './new-pet.dto.js';

export const MAX_IDS_PER_QUERY = 100;

export class ListPetsQuery extends PageQuery {
  @ApiPropertyOptional({
    ...PET_STATUS_SCHEMA,
    description: 'Only pets with one of these statuses (repeat the parameter for several)',
    isArray: true,
    example: ['available'],
  })
  @IsOptional()
  @QueryArray()
  @IsIn(PET_STATUSES, { each: true })
  status?: PetStatus[];

  @ApiPropertyOptional({ description: 'Only pets of this category', type: 'integer', format: 'int64', minimum: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  categoryId?: number;

  @ApiPropertyOptional({
    description: `Only pets with these ids (repeat the parameter, up to ${MAX_IDS_PER_QUERY}); \`GET /pets?id={petId}\` replaces the deprecated \`GET /pets/{petId}\``,
    type: 'array',
    items: { type: 'integer', format: 'int64', minimum: 1 },
    maxItems: MAX_IDS_PER_QUERY,
  })
  @IsOptional()
  @QueryArray(toStrictInt)
  @ArrayMaxSize(MAX_IDS_PER_QUERY)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(Number.MAX_SAFE_INTEGER, { each: true })
  id?: number[];

  toFilter(): PetFilter {
    return { statuses: this.status, categoryId: this.categoryId, ids: this.id };
  }
}
