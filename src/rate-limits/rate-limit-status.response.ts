import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type RateLimitDecision, reportedWindows, resetSeconds } from '@petstore/rate-limit';
import { PLAN_NAMES } from './plan.js';

@ApiSchema({ name: 'RateLimitWindow', description: "One of the plan's fixed windows, as the key stands now" })
export class RateLimitWindowResponse {
  @ApiProperty({ enum: ['minute', 'day'], description: 'Which window', example: 'minute' })
  name!: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, description: 'Requests allowed in it', example: 60 })
  limit!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    description: 'Requests left in it (0 while banned)',
    example: 42,
  })
  remaining!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description:
      'Unix time in seconds when it resets, rounded up as in `X-RateLimit-Reset` (while banned: not before the ' +
      "ban's end); a window not open yet would reset a full window after the next request",
    example: 1795262460,
  })
  reset!: number;
}

@ApiSchema({ name: 'RateLimitStatus', description: "The calling key's plan, windows and ban, without counting" })
export class RateLimitStatusResponse {
  @ApiProperty({ enum: PLAN_NAMES, enumName: 'Plan', description: 'Rate-limit plan' })
  plan!: string;

  @ApiProperty({
    type: [RateLimitWindowResponse],
    description: 'The minute and the day window',
    example: [
      { name: 'minute', limit: 60, remaining: 42, reset: 1795262460 },
      { name: 'day', limit: 1000, remaining: 958, reset: 1795345200 },
    ],
  })
  windows!: RateLimitWindowResponse[];

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    description: 'Present while the key is banned: Unix time in seconds when the ban ends',
    example: 1795263300,
  })
  bannedUntil?: number;

  static from(plan: string, decision: RateLimitDecision): RateLimitStatusResponse {
    const response = Object.assign(new RateLimitStatusResponse(), {
      plan,
      windows: reportedWindows(decision).map((w) =>
        Object.assign(new RateLimitWindowResponse(), {
          name: w.name,
          limit: w.limit,
          remaining: w.remaining,
          reset: resetSeconds(w.resetAt),
        }),
      ),
    });
    if (decision.outcome === 'banned') response.bannedUntil = resetSeconds(decision.binding.resetAt);
    return response;
  }
}
