import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import type { DocumentedError } from '@petstore/errors';
import type { Request, Response } from 'express';
import { auditContextOf } from '../../audit/index.js';
import { ApiErrors, Stability } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { PageQuery } from '../../shared/http/page.query.js';
import { PositiveIdPipe } from '../../shared/http/positive-id.pipe.js';
import { AccountsService } from '../application/accounts.service.js';
import {
  AccountExternalIdTakenError,
  AccountHasLiveKeysError,
  AccountNotFoundError,
} from '../domain/account.errors.js';
import { MAX_USAGE_RANGE_DAYS } from '../domain/key-usage-range.js';
import { AccountResponse, AccountUpdateDto, NewAccountDto } from './dto/account.dto.js';
import { DailyUsageResponse } from './dto/daily-usage.response.js';
import { KeyUsageQuery } from './dto/key-usage.query.js';

const AccountId = new PositiveIdPipe((id) => new AccountNotFoundError(id));

const NOT_FOUND: DocumentedError = ['No account has this id', new AccountNotFoundError(7)];
const EXTERNAL_ID_TAKEN: DocumentedError = [
  'Another account has this externalId',
  new AccountExternalIdTakenError('cus_4f2a91'),
];

@ApiTags('Store')
@Controller('admin/accounts')
@RequireScope('admin')
export class AdminAccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post()
  @Stability('beta')
  @ApiOperation({
    operationId: 'createAccount',
    summary: 'Create an account',
    description:
      'A customer with several keys (one per service or environment): keys put in it (`accountId` on ' +
      '`POST`/`PATCH /admin/api-keys`) have its plan and limits and share its rate-limit windows.',
  })
  @ApiCreatedResponse({
    type: AccountResponse,
    description: 'The account',
    headers: { Location: { description: 'URL of the account', schema: { type: 'string' } } },
  })
  @ApiErrors(EXTERNAL_ID_TAKEN)
  async create(
    @Body() body: NewAccountDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AccountResponse> {
    const account = await this.accounts.create(body, auditContextOf(req));
    res.setHeader('Location', `/admin/accounts/${account.id}`);
    return AccountResponse.from(account);
  }

  @Get()
  @Stability('beta')
  @ApiOperation({ operationId: 'listAccounts', summary: 'List accounts', description: 'Ordered by id and paged.' })
  @ApiOkResponse({ type: [AccountResponse], description: 'One page of accounts' })
  async list(
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AccountResponse[]> {
    const page = await this.accounts.list(query.toPageRequest());
    setNextPageLink(req, res, page);
    return page.items.map(AccountResponse.from);
  }

  @Get(':accountId')
  @Stability('beta')
  @ApiOperation({
    operationId: 'getAccount',
    summary: 'An account',
    description: 'Its plan and limits, which every key in it has (`GET /admin/api-keys?accountId=` lists them).',
  })
  @ApiOkResponse({ type: AccountResponse, description: 'The account' })
  @ApiErrors(NOT_FOUND)
  async get(@Param('accountId', AccountId) id: number): Promise<AccountResponse> {
    return AccountResponse.from(await this.accounts.get(id));
  }

  @Patch(':accountId')
  @Stability('beta')
  @ApiOperation({
    operationId: 'updateAccount',
    summary: "Change an account's name, plan, limits or externalId",
    description:
      'Absent fields keep their value; `limits` is allowed only for (and required by) the enterprise plan. A new ' +
      'plan or limits apply to every key of the account at once on this instance, within 10 s (the key cache) on ' +
      'others; the windows keep their counts.',
  })
  @ApiOkResponse({ type: AccountResponse, description: 'The updated account' })
  @ApiErrors(NOT_FOUND, EXTERNAL_ID_TAKEN)
  async update(
    @Param('accountId', AccountId) id: number,
    @Body() body: AccountUpdateDto,
    @Req() req: Request,
  ): Promise<AccountResponse> {
    return AccountResponse.from(await this.accounts.update(id, body, auditContextOf(req)));
  }

  @Delete(':accountId')
  @Stability('beta')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteAccount',
    summary: 'Delete an account',
    description:
      'Only an account without unrevoked keys: revoke its keys or take them out of it first. Its revoked keys ' +
      'are left in no account; its usage history stays in the export.',
  })
  @ApiNoContentResponse({ description: 'The account is deleted' })
  @ApiErrors(NOT_FOUND, ['The account still has unrevoked keys', new AccountHasLiveKeysError(7)])
  async remove(@Param('accountId', AccountId) id: number, @Req() req: Request): Promise<void> {
    await this.accounts.remove(id, auditContextOf(req));
  }

  @Get(':accountId/usage')
  @Stability('beta')
  @ApiOperation({
    operationId: 'getAccountUsage',
    summary: "An account's usage per day",
    description:
      "The usage of the account's keys per UTC day, as for one key (`GET /admin/api-keys/{keyId}/usage`): requests " +
      'made while a key was in the account count here, whatever it belongs to now. From `from` to `to` (both ' +
      `included; default: the last 30 days, today included; at most ${MAX_USAGE_RANGE_DAYS} days), every day listed, ` +
      'zeros for days without traffic. Each instance adds its counts every few seconds.',
  })
  @ApiOkResponse({ type: [DailyUsageResponse], description: 'One entry per day, oldest first' })
  @ApiErrors(NOT_FOUND)
  async usage(@Param('accountId', AccountId) id: number, @Query() query: KeyUsageQuery): Promise<DailyUsageResponse[]> {
    return (await this.accounts.daily(id, query)).map(DailyUsageResponse.from);
  }
}
