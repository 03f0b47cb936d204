import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ValidationFailedError } from '@petstore/errors';
import { PageQuery } from '../../../shared/http/page.query.js';
import { QueryInt } from '../../../shared/http/query-transforms.js';
import { AUDIT_ACTION_PATTERN, type AuditLogFilter, type AuditPageRequest } from '../../domain/audit-entry.js';

const DATE_TIME = { strict: true, strictSeparator: true } as const;

/** Filters and paging of GET /admin/audit-log (a `cursor` pages on towards older entries). */
export class AuditLogQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only entries of this action', example: 'api_key.rolled', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(AUDIT_ACTION_PATTERN, { message: 'action must be a dotted action name such as api_key.updated' })
  action?: string;

  @ApiPropertyOptional({ description: 'Only entries about targets of this type', example: 'api_key', maxLength: 32 })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  @Matches(/^[a-z][a-z0-9_]*$/, { message: 'targetType must be a target type such as api_key' })
  targetType?: string;

  @ApiPropertyOptional({ description: 'Only entries about the target with this id', example: '7', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  targetId?: string;

  @ApiPropertyOptional({
    description: 'Only changes made with this API key',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    example: 1,
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  actorKeyId?: number;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Only entries at or after this instant',
    example: '2026-11-01T00:00:00.000Z',
  })
  @IsOptional()
  @IsDateString(DATE_TIME)
  from?: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Only entries before this instant',
    example: '2026-12-01T00:00:00.000Z',
  })
  @IsOptional()
  @IsDateString(DATE_TIME)
  to?: string;

  toFilter(): AuditLogFilter {
    const from = this.from === undefined ? undefined : new Date(this.from);
    const to = this.to === undefined ? undefined : new Date(this.to);
    if (from && to && from.getTime() > to.getTime()) throw new ValidationFailedError(['from must not be after to']);
    return {
      action: this.action,
      targetType: this.targetType,
      targetId: this.targetId,
      actorKeyId: this.actorKeyId,
      from,
      to,
    };
  }

  /** Newest first: the cursor names the last (oldest) entry of the page before. */
  toAuditPageRequest(): AuditPageRequest {
    const { limit, afterId } = this.toPageRequest();
    return { limit, beforeId: afterId };
  }
}
