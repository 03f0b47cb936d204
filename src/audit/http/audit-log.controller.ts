import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import type { Request, Response } from 'express';
import { Stability } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { AuditLogService } from '../application/audit-log.service.js';
import { AuditEntryResponse } from './dto/audit-entry.response.js';
import { AuditLogQuery } from './dto/audit-log.query.js';

@ApiTags('Store')
@Controller('admin/audit-log')
@RequireScope('admin')
export class AuditLogController {
  constructor(private readonly log: AuditLogService) {}

  @Get()
  @Stability('beta')
  @ApiOperation({
    operationId: 'listAuditLog',
    summary: 'The audit log of admin changes',
    description:
      'Every change made to keys (created, updated, rolled, overlap ended, revoked, unbanned) and to accounts ' +
      '(created, updated, deleted), every address unban and every new plan table, by whom (an admin key and its address, the keys command line, or the ' +
      'service), with each changed field as `[before, after]`. Newest first (unlike the other lists, which are ' +
      'oldest first), paged by cursor; kept for `AUDIT_RETENTION_DAYS` (400 by default).',
  })
  @ApiOkResponse({
    type: [AuditEntryResponse],
    description: 'One page of entries, newest first',
    example: [
      {
        id: 42,
        at: '2026-11-28T10:15:00.000Z',
        actor: { type: 'api_key', id: 1, address: '203.0.113.7' },
        requestId: '5f0c6a1e-8d2b-4a57-9a0e-2b7f3c1d9e84',
        action: 'api_key.updated',
        target: { type: 'api_key', id: '7' },
        changes: { plan: ['free', 'pro'] },
      },
      {
        id: 41,
        at: '2026-11-28T09:00:00.000Z',
        actor: { type: 'cli' },
        action: 'api_key.rolled',
        target: { type: 'api_key', id: '7' },
        changes: {
          prefix: ['psk_Xk3f9aQe', 'psk_b81LmQ2w'],
          previousKeyExpiresAt: [null, '2026-11-29T09:00:00.000Z'],
        },
      },
      {
        id: 40,
        at: '2026-11-28T08:00:00.000Z',
        actor: { type: 'system' },
        action: 'plans.reloaded',
        target: { type: 'plan_table', id: '3f1a9c0e5b7d2e48' },
        changes: {
          pro: [
            { perMinute: 300, perDay: 10000 },
            { perMinute: 600, perDay: 20000 },
          ],
        },
      },
    ],
  })
  async list(
    @Query() query: AuditLogQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AuditEntryResponse[]> {
    const page = await this.log.list(query.toFilter(), query.toAuditPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map((entry) => AuditEntryResponse.from(entry));
  }
}
