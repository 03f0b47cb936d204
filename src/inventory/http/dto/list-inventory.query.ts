import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PET_STATUS_SCHEMA, PET_STATUSES, type PetStatus } from '../../../pets/index.js';
import { PageQuery } from '../../../shared/http/page.query.js';
import { QueryArray } from '../../../shared/http/query-transforms.js';

export class ListInventoryQuery extends PageQuery {
  @ApiPropertyOptional({
    ...PET_STATUS_SCHEMA,
    description: 'Only entries whose pet has one of these statuses (repeat the parameter for several)',
    isArray: true,
    example: ['available'],
  })
  @IsOptional()
  @QueryArray()
  @IsIn(PET_STATUSES, { each: true })
  status?: PetStatus[];
}
