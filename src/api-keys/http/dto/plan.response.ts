import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PLAN_NAMES } from '../../../rate-limits/plan.js';

@ApiSchema({ name: 'PlanQuota', description: 'A plan and its quotas; enterprise quotas are set per key' })
export class PlanResponse {
  @ApiProperty({ enum: PLAN_NAMES, enumName: 'Plan', description: 'Plan name' })
  name!: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', description: 'Requests per minute (absent: per key)' })
  perMinute?: number;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', description: 'Requests per day (absent: per key)' })
  perDay?: number;

  /** `limits` absent: the plan's quotas are set per key (enterprise). */
  static from(name: string, limits: { readonly perMinute: number; readonly perDay: number } | null): PlanResponse {
    const response = Object.assign(new PlanResponse(), { name });
    if (limits) Object.assign(response, { perMinute: limits.perMinute, perDay: limits.perDay });
    return response;
  }
}
