import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { DailyUsage } from '../../domain/key-usage.js';

@ApiSchema({
  name: 'DailyUsage',
  description: "One UTC day of an API key's traffic as the rate limiter counted it",
})
export class DailyUsageResponse {
  @ApiProperty({ type: 'string', format: 'date', description: 'The day (UTC)', example: '2026-11-23' })
  date!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: 'Requests counted against the plan (they used quota)',
    example: 1000,
  })
  requests!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: 'Requests refused with 429 (`RATE_LIMIT_EXCEEDED` or `API_KEY_BANNED`); they used no quota',
    example: 212,
  })
  refused!: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, description: 'Bans that started', example: 1 })
  bans!: number;

  static from(this: void, day: DailyUsage): DailyUsageResponse {
    return Object.assign(new DailyUsageResponse(), {
      date: day.date,
      requests: day.requests,
      refused: day.refused,
      bans: day.bans,
    });
  }
}
