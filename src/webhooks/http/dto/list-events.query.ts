import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PageQuery } from '../../../shared/http/page.query.js';
import { QueryArray, QueryInt } from '../../../shared/http/query-transforms.js';
import type { PageRequest } from '../../../shared/paging/page.js';
import { STORE_EVENT_TYPES, type StoreEventType } from '../../domain/store-event.js';
import { EVENT_TYPE_SCHEMA } from './event.response.js';

export class ListEventsQuery extends PageQuery {
  @ApiPropertyOptional({
    description:
      'Only events after this event id: the id of the last event you processed (`0` or absent: from the oldest kept). A `cursor` (from the `next` link) takes precedence.',
    type: 'integer',
    format: 'int64',
    minimum: 0,
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  after?: number;

  @ApiPropertyOptional({
    ...EVENT_TYPE_SCHEMA,
    isArray: true,
    description: 'Only events of these types (repeat the parameter for several)',
  })
  @IsOptional()
  @QueryArray()
  @IsIn(STORE_EVENT_TYPES, { each: true })
  type?: StoreEventType[];

  /** The cursor of a `next` link wins over the `after` it kept from the first request. */
  override toPageRequest(): PageRequest {
    const page = super.toPageRequest();
    return this.after === undefined || this.cursor !== undefined ? page : { ...page, afterId: this.after };
  }
}
