import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QueryInt } from '../../../shared/http/query-transforms.js';
import { MAX_EXPORT_PAGE, type UsageRow } from '../../domain/usage-export.js';
import { DailyUsageResponse } from './daily-usage.response.js';
import { KeyUsageQuery } from './key-usage.query.js';

/** `from`, `to` as for one key's usage, and a page of the export. */
export class UsageExportQuery extends KeyUsageQuery {
  @ApiPropertyOptional({
    description: 'Maximum number of rows to return (an export reads large pages)',
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_EXPORT_PAGE,
    default: MAX_EXPORT_PAGE,
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_EXPORT_PAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque cursor from the `next` link of the previous page', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  cursor?: string;

  @ApiPropertyOptional({
    description: 'Only the usage attributed to this account (made by its keys while they were in it)',
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

/** A day of `DailyUsage` with the key it belongs to (the domain's `UsageRow` is a `DailyUsage` too). */
@ApiSchema({ name: 'UsageRow', description: "One API key's traffic on one UTC day, as the rate limiter counted it" })
export class UsageRowResponse extends DailyUsageResponse {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'The key', example: 2 })
  keyId!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description:
      'The account the key belonged to when the requests were made; null for a key in no account (a key moved ' +
      'during a day has a row for each)',
    example: 3,
  })
  accountId!: number | null;

  static override from(this: void, row: UsageRow): UsageRowResponse {
    return Object.assign(new UsageRowResponse(), {
      date: row.date,
      keyId: row.keyId,
      accountId: row.accountId,
      requests: row.requests,
      refused: row.refused,
      bans: row.bans,
    });
  }
}
