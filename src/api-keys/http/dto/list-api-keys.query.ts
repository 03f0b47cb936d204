import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQuery } from '../../../shared/http/page.query.js';
import { QueryInt } from '../../../shared/http/query-transforms.js';

/** A page of keys, optionally of one account. */
export class ListApiKeysQuery extends PageQuery {
  @ApiPropertyOptional({
    description: "Only this account's keys",
    type: 'integer',
    format: 'int64',
    minimum: 1,
    example: 3,
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  accountId?: number;
}
