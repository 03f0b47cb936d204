import { Controller, Delete, Get, HttpCode, Query, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import { RateLimiter } from '@petstore/rate-limit';
import type { Request } from 'express';
import { auditContextOf } from '../audit/index.js';
import { Stability } from '../shared/http/api-docs.js';
import { AddressUnbans } from './address-unbans.js';
import { AddressBanQuery, BanResponse } from './admin-bans.dto.js';
import { banViews } from './bans.js';

@ApiTags('Store')
@Controller('admin/bans')
@RequireScope('admin')
export class AdminBansController {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly unbans: AddressUnbans,
  ) {}

  @Get()
  @Stability('beta')
  @ApiOperation({
    operationId: 'listBans',
    summary: 'The rate-limit bans in force',
    description:
      'Every key and address banned now, soonest to end first: for sending on after 429 responses ' +
      "(`ignored_429s`), or blocked by a route's own limit (`route_block`). Addresses are those of requests " +
      'without a valid key, an IPv6 client as its /64. The same on every instance: with Redis, from its index ' +
      'of bans. Not paged: bans are few and short (at most 10,000 are listed).',
  })
  @ApiOkResponse({
    type: [BanResponse],
    description: 'The bans in force',
    example: [
      { kind: 'key', keyId: 7, until: '2026-11-28T10:15:00.000Z', cause: 'ignored_429s' },
      { kind: 'address', address: '2001:db8:aa:1::/64', until: '2026-11-28T10:20:00.000Z', cause: 'ignored_429s' },
    ],
  })
  async list(): Promise<BanResponse[]> {
    return banViews(await this.limiter.bans()).map(BanResponse.from);
  }

  @Delete('addresses')
  @Stability('beta')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'unbanAddress',
    summary: "Lift an address's rate-limit ban",
    description:
      'Lifts the ban of requests without a valid key from this address (an IPv6 address: its whole /64), and ' +
      'any route block of it, at once on every instance. Its windows keep their counts. Recorded in the audit ' +
      'log (`address.unbanned`).',
  })
  @ApiNoContentResponse({ description: 'The address is not banned (any more)' })
  async unbanAddress(@Query() query: AddressBanQuery, @Req() req: Request): Promise<void> {
    await this.unbans.unban(query.address, auditContextOf(req));
  }
}
