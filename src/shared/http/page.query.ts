import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ValidationFailedError } from '@petstore/errors';
import { decodeCursor } from '../paging/cursor.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type PageRequest } from '../paging/page.js';
import { QueryInt } from './query-transforms.js';

/** `limit` and `cursor`, shared by every list operation. */
export class PageQuery {
  @ApiPropertyOptional({
    description: 'Maximum number of items to return',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_PAGE_LIMIT,
    default: DEFAULT_PAGE_LIMIT,
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  @ApiPropertyOptional({
    description: 'Opaque cursor from the `next` link of the previous page',
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  cursor?: string;

  toPageRequest(): PageRequest {
    let afterId: number | null = null;
    if (this.cursor !== undefined) {
      afterId = decodeCursor(this.cursor);
      if (afterId === null) throw new ValidationFailedError(['cursor is not a valid paging cursor']);
    }
    return { limit: this.limit ?? DEFAULT_PAGE_LIMIT, afterId };
  }
}
