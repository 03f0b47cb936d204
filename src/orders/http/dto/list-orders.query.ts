import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQuery } from '../../../shared/http/page.query.js';
import { QueryBoolean, QueryInt } from '../../../shared/http/query-transforms.js';
import type { OrderFilter } from '../../domain/order.repository.js';

export class ListOrdersQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only orders for this pet', type: 'integer', format: 'int64', minimum: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  petId?: number;

  @ApiPropertyOptional({ description: 'Only complete (`true`) or open (`false`) orders', type: 'boolean' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  complete?: boolean;

  toFilter(): Omit<OrderFilter, 'ownerKeyId'> {
    return { petId: this.petId, complete: this.complete };
  }
}
