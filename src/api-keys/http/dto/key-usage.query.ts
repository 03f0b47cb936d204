import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { DEFAULT_USAGE_RANGE_DAYS, MAX_USAGE_RANGE_DAYS } from '../../domain/key-usage-range.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `from` and `to` of a usage report: UTC days, both included (checked further by `usageRange`). */
export class KeyUsageQuery {
  @ApiPropertyOptional({
    type: 'string',
    format: 'date',
    description: `First day (UTC), included; default: ${DEFAULT_USAGE_RANGE_DAYS - 1} days before \`to\``,
    example: '2026-11-01',
  })
  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'from must be a calendar date (YYYY-MM-DD)' })
  from?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date',
    description: `Last day (UTC), included; default: today. At most ${MAX_USAGE_RANGE_DAYS} days from \`from\``,
    example: '2026-11-23',
  })
  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'to must be a calendar date (YYYY-MM-DD)' })
  to?: string;
}
