import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PET_STATUSES, type PetStatus } from '../../../pets/domain/pet-status.js';
import { PageQuery } from '../../../shared/http/page.query.js';
import { QueryArray } from '../../../shared/http/query-transforms.js';

export class ListInventoryQuery extends PageQuery {
  @ApiPropertyOptional({
    description: 'Only entries whose pet has one of these statuses (repeat the parameter for several)',
    type: 'array',
    items: { type: 'string', enum: [...PET_STATUSES] },
  })
  @IsOptional()
  @QueryArray()
  @IsIn(PET_STATUSES, { each: true })
  status?: PetStatus[];
}
