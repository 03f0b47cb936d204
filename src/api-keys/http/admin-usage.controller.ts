import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiProduces, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import type { Request, Response } from 'express';
import { Stability } from '../../shared/http/api-docs.js';
import { withCursor } from '../../shared/http/link-header.js';
import { UsageExportService } from '../application/usage-export.service.js';
import { MAX_USAGE_RANGE_DAYS } from '../domain/key-usage-range.js';
import { encodeUsageCursor, MAX_EXPORT_PAGE, usageCsv } from '../domain/usage-export.js';
import { UsageExportQuery, UsageRowResponse } from './dto/usage-export.dto.js';

const CSV = 'text/csv';
const JSON_EXAMPLE = [
  { date: '2026-11-22', keyId: 2, accountId: null, requests: 1000, refused: 212, bans: 1 },
  { date: '2026-11-22', keyId: 5, accountId: 3, requests: 318, refused: 0, bans: 0 },
];
const CSV_EXAMPLE =
  'date,keyId,accountId,requests,refused,bans\r\n2026-11-22,2,,1000,212,1\r\n2026-11-22,5,3,318,0,0\r\n';

@ApiTags('Store')
@Controller('admin/usage')
@RequireScope('admin')
@ApiExtraModels(UsageRowResponse)
export class AdminUsageController {
  constructor(private readonly usage: UsageExportService) {}

  @Get()
  @Stability('beta')
  @ApiProduces('application/json', CSV)
  @ApiOperation({
    operationId: 'exportUsage',
    summary: "Every key's usage per day, for billing",
    description:
      'One row per key and UTC day with traffic from `from` to `to` (both included; default: the last 30 days, ' +
      `today included; at most ${MAX_USAGE_RANGE_DAYS} days), ordered by day then key id, revoked keys included. ` +
      '`accountId` on a row is the account the key was in when the requests were made (a key moved during a day ' +
      'has a row per account); the `accountId` parameter keeps only the usage attributed to that account. ' +
      `Paged like every list, by up to ${MAX_EXPORT_PAGE} rows (\`Link: rel="next"\`). With \`Accept: text/csv\` ` +
      'the same rows come as CSV (RFC 4180, a header row, `accountId` empty for a key in no account), paged the ' +
      'same way. Each instance adds its counts every few seconds, so the last seconds of traffic may not be in it yet.',
  })
  @ApiResponse({
    status: 200,
    description: 'One page of rows, by day then key',
    headers: { Link: { description: 'The next page, when there is one (`rel="next"`)', schema: { type: 'string' } } },
    content: {
      'application/json': {
        schema: { type: 'array', items: { $ref: getSchemaPath(UsageRowResponse) } },
        example: JSON_EXAMPLE,
      },
      [CSV]: {
        schema: { type: 'string', description: 'CSV with a header row: date,keyId,accountId,requests,refused,bans' },
        example: CSV_EXAMPLE,
      },
    },
  })
  async export(
    @Query() query: UsageExportQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UsageRowResponse[] | string> {
    const page = await this.usage.page({ ...query, limit: query.limit ?? MAX_EXPORT_PAGE });
    const last = page.items.at(-1);
    if (page.hasMore && last) {
      res.setHeader('Link', `<${withCursor(req.originalUrl, encodeUsageCursor(last))}>; rel="next"`);
    }
    // JSON unless the client prefers CSV (a missing Accept, or */*, is JSON).
    if (req.accepts(['application/json', CSV]) === CSV) {
      res.setHeader('Content-Type', `${CSV}; charset=utf-8; header=present`);
      return usageCsv(page.items);
    }
    return page.items.map(UsageRowResponse.from);
  }
}
