import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ApiKey, CurrentApiKey, RequireApiKey } from '@petstore/auth';
import { RateLimiter, recallRateLimit, SkipThrottleIfIdentified } from '@petstore/rate-limit';
import type { Request } from 'express';
import { keyClient } from './api-clients.js';
import { RateLimitStatusResponse } from './rate-limit-status.response.js';

@ApiTags('Store')
@Controller('rate-limit')
export class RateLimitController {
  constructor(private readonly limiter: RateLimiter) {}

  @Get()
  @RequireApiKey()
  // Never counted for a valid key; requests without one are counted as everywhere (no free key guessing).
  @SkipThrottleIfIdentified()
  @ApiOperation({
    operationId: 'getRateLimit',
    summary: "The calling key's quota",
    description:
      "The key's plan, its minute and day windows (limit, remaining, reset) and, while it is banned, when the " +
      'ban ends. Any valid key may call it, whatever its scopes; it is never counted and never refused for being ' +
      'over a limit or banned, and carries the `X-RateLimit-*` headers of the window that binds most, from the ' +
      'same reading as the body.',
  })
  @ApiOkResponse({ type: RateLimitStatusResponse, description: "The key's plan, windows and ban" })
  async status(@CurrentApiKey() key: ApiKey, @Req() req: Request): Promise<RateLimitStatusResponse> {
    // The middleware read the counters for this request (without counting): the body and headers agree.
    // Without it (limiter switched off), read them here, again without counting.
    const decision = recallRateLimit(req)?.decision ?? (await this.limiter.check(keyClient(key), false));
    return RateLimitStatusResponse.from(key.plan, decision);
  }
}
