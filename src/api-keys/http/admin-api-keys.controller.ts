import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import type { DocumentedError } from '@petstore/errors';
import type { Request, Response } from 'express';
import { auditContextOf } from '../../audit/index.js';
import { ApiErrors, Stability } from '../../shared/http/api-docs.js';
import { setNextPageLink } from '../../shared/http/link-header.js';
import { PositiveIdPipe } from '../../shared/http/positive-id.pipe.js';
import { KeyPlanFromAccountError, ReferencedAccountNotFoundError } from '../domain/account.errors.js';
import { ApiKeyNotFoundError } from '../domain/api-key.errors.js';
import { ApiKeysService } from '../application/api-keys.service.js';
import { KeyUsageService } from '../application/key-usage.service.js';
import { MAX_USAGE_RANGE_DAYS } from '../domain/key-usage-range.js';
import { ApiKeyUpdateDto } from './dto/api-key-update.dto.js';
import { ApiKeyResponse, IssuedApiKeyResponse, RolledApiKeyResponse } from './dto/api-key.response.js';
import { RateLimitStatusResponse } from '../../rate-limits/rate-limit-status.response.js';
import { RollApiKeyDto } from './dto/roll-api-key.dto.js';
import { DailyUsageResponse } from './dto/daily-usage.response.js';
import { KeyUsageQuery } from './dto/key-usage.query.js';
import { ListApiKeysQuery } from './dto/list-api-keys.query.js';
import { NewApiKeyDto } from './dto/new-api-key.dto.js';

const KeyId = new PositiveIdPipe((id) => new ApiKeyNotFoundError(id));

const NOT_FOUND: DocumentedError = ['No API key has this id', new ApiKeyNotFoundError(7)];
const ACCOUNT_ERRORS: readonly DocumentedError[] = [
  ['`accountId` names no account', new ReferencedAccountNotFoundError(3)],
  ['`plan` or `limits` given for a key in an account', new KeyPlanFromAccountError(3, 'plan')],
];

/** An ISO date-time of a body as a Date; null and absent kept. */
function dateOf<T extends string | null | undefined>(value: T): Date | Exclude<T, string> {
  return (typeof value === 'string' ? new Date(value) : value) as Date | Exclude<T, string>;
}

@ApiTags('Store')
@Controller('admin/api-keys')
@RequireScope('admin')
export class AdminApiKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly usage: KeyUsageService,
  ) {}

  @Post()
  @Stability('beta')
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Issue an API key',
    description:
      'The key is in `key` of this response only; the service keeps just its hash. With `accountId`, the key ' +
      "belongs to that account: it has the account's plan and limits (give neither) and shares its windows.",
  })
  @ApiCreatedResponse({
    type: IssuedApiKeyResponse,
    description: 'The issued key',
    headers: { Location: { description: 'URL of the key', schema: { type: 'string' } } },
  })
  @ApiErrors(...ACCOUNT_ERRORS)
  async create(
    @Body() body: NewApiKeyDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<IssuedApiKeyResponse> {
    const { key, secret } = await this.keys.create({ ...body, expiresAt: dateOf(body.expiresAt) }, auditContextOf(req));
    res.setHeader('Location', `/admin/api-keys/${key.id}`);
    return IssuedApiKeyResponse.from({ ...key, secret });
  }

  @Get()
  @Stability('beta')
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description:
      'Every key ever issued, revoked ones included, ordered by id and paged; with `accountId`, that account’s keys.',
  })
  @ApiOkResponse({ type: [ApiKeyResponse], description: 'One page of keys' })
  async list(
    @Query() query: ListApiKeysQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiKeyResponse[]> {
    const filter = query.accountId === undefined ? {} : { accountId: query.accountId };
    const page = await this.keys.list(query.toPageRequest(), filter);
    setNextPageLink(req, res, page);
    return page.items.map(ApiKeyResponse.from);
  }

  @Patch(':keyId')
  @Stability('beta')
  @ApiOperation({
    operationId: 'updateApiKey',
    summary: "Change an API key's plan, scopes, limits or account",
    description:
      'Absent fields keep their value; `limits` is allowed only for (and required by) the enterprise plan. ' +
      '`accountId` moves the key into an account (then it has no plan of its own) or, null, out of it (it is ' +
      'counted alone again); this instance applies it at once, others within the key cache (10 s).',
  })
  @ApiOkResponse({ type: ApiKeyResponse, description: 'The updated key' })
  @ApiErrors(NOT_FOUND, ...ACCOUNT_ERRORS)
  async update(
    @Param('keyId', KeyId) id: number,
    @Body() body: ApiKeyUpdateDto,
    @Req() req: Request,
  ): Promise<ApiKeyResponse> {
    const changes = { ...body, expiresAt: dateOf(body.expiresAt) };
    return ApiKeyResponse.from(await this.keys.update(id, changes, auditContextOf(req)));
  }

  @Get(':keyId')
  @Stability('beta')
  @ApiOperation({
    operationId: 'getApiKey',
    summary: 'An API key',
    description:
      'The key (never its secret), revoked or not, with `lastUsedAt` and, after a roll, when the previous ' +
      'secret ends and was last used. Last uses are as of the last usage flush (every few seconds per instance).',
  })
  @ApiOkResponse({ type: ApiKeyResponse, description: 'The key' })
  @ApiErrors(NOT_FOUND)
  async get(@Param('keyId', KeyId) id: number): Promise<ApiKeyResponse> {
    return ApiKeyResponse.from(await this.keys.get(id));
  }

  @Get(':keyId/rate-limit')
  @Stability('beta')
  @ApiOperation({
    operationId: 'getApiKeyRateLimit',
    summary: "An API key's live windows",
    description:
      'What `GET /rate-limit` shows the key itself: its plan, minute and day windows and ban, as they stand now ' +
      'on the limiter (memory or Redis). Reading them counts no request against that key.',
  })
  @ApiOkResponse({ type: RateLimitStatusResponse, description: "The key's plan, windows and ban" })
  @ApiErrors(NOT_FOUND)
  async windows(@Param('keyId', KeyId) id: number): Promise<RateLimitStatusResponse> {
    const { key, decision } = await this.keys.windows(id);
    return RateLimitStatusResponse.from(key.plan, decision);
  }

  @Post(':keyId/roll')
  @Stability('beta')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rollApiKey',
    summary: 'Give an API key a new secret',
    description:
      'The same key (id, plan, scopes, limits, usage and windows) gets a new secret, shown only in this ' +
      'response. The previous secret keeps working for `overlapSeconds` (default 86400, at most 30 days, 0: ' +
      'not at all), then answers 401 `API_KEY_EXPIRED`; rolling again during an overlap ends the older ' +
      'secret at once. This instance applies the roll at once, others within the key cache (10 s).',
  })
  @ApiOkResponse({ type: RolledApiKeyResponse, description: 'The new secret and the end of the overlap' })
  @ApiErrors(NOT_FOUND)
  async roll(
    @Param('keyId', KeyId) id: number,
    @Body() body: RollApiKeyDto,
    @Req() req: Request,
  ): Promise<RolledApiKeyResponse> {
    return RolledApiKeyResponse.from(await this.keys.roll(id, body.overlapSeconds, auditContextOf(req)));
  }

  @Post(':keyId/roll/end-overlap')
  @Stability('beta')
  @ApiOperation({
    operationId: 'endApiKeyRollOverlap',
    summary: "End a rolled key's overlap now",
    description:
      'The previous secret answers 401 `API_KEY_EXPIRED` from now on (on other instances within the key ' +
      'cache, 10 s). Nothing changes when no overlap is running. `GET /admin/api-keys/{keyId}` shows the ' +
      'overlap as ended (`previousKeyExpiresAt`).',
  })
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The overlap is over' })
  @ApiErrors(NOT_FOUND)
  async endOverlap(@Param('keyId', KeyId) id: number, @Req() req: Request): Promise<void> {
    await this.keys.endOverlap(id, auditContextOf(req));
  }

  @Delete(':keyId')
  @Stability('beta')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'The key stops working at once on this instance, and within seconds on others.',
  })
  @ApiNoContentResponse({ description: 'The key is revoked' })
  @ApiErrors(NOT_FOUND)
  async revoke(@Param('keyId', KeyId) id: number, @Req() req: Request): Promise<void> {
    await this.keys.revoke(id, auditContextOf(req));
  }

  @Post(':keyId/unban')
  @Stability('beta')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'unbanApiKey',
    summary: "Lift an API key's rate-limit ban",
    description:
      'A key that keeps sending after 429 responses is banned for a while (429 `API_KEY_BANNED`). ' +
      'This lifts the ban at once, on every instance; the quota windows keep their counts.',
  })
  @ApiNoContentResponse({ description: 'The key is not banned (any more)' })
  @ApiErrors(NOT_FOUND)
  async unban(@Param('keyId', KeyId) id: number, @Req() req: Request): Promise<void> {
    await this.keys.unban(id, auditContextOf(req));
  }

  @Get(':keyId/usage')
  @ApiOperation({
    operationId: 'getApiKeyUsage',
    summary: "An API key's usage per day",
    description:
      'Requests counted against the plan, requests refused with 429 and bans that started, per UTC day from ' +
      '`from` to `to` (both included; default: the last 30 days, today included; at most ' +
      `${MAX_USAGE_RANGE_DAYS} days). Every day of the range is listed, with zeros for days without traffic ` +
      'and for days beyond the retention (at least 90 days are kept). Each instance adds its counts every few ' +
      'seconds, so the last seconds of traffic may not be in it yet.',
  })
  @ApiOkResponse({ type: [DailyUsageResponse], description: 'One entry per day, oldest first' })
  @ApiErrors(NOT_FOUND)
  async usageOf(@Param('keyId', KeyId) id: number, @Query() query: KeyUsageQuery): Promise<DailyUsageResponse[]> {
    return (await this.usage.daily(id, query)).map(DailyUsageResponse.from);
  }
}
