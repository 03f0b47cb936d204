import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import { DEFAULT_PLAN_TABLE, PLAN_NAMES } from '@petstore/rate-limit';
import { Stability } from '../../shared/http/api-docs.js';
import { PlanResponse } from './dto/plan.response.js';

@ApiTags('Store')
@Controller('admin/plans')
@RequireScope('admin')
export class AdminPlansController {
  @Get()
  @Stability('beta')
  @ApiOperation({
    operationId: 'listPlans',
    summary: 'The effective plan table',
    description: 'Quotas per plan; enterprise quotas are set per key.',
  })
  @ApiOkResponse({ type: [PlanResponse], description: 'Every plan' })
  list(): PlanResponse[] {
    return PLAN_NAMES.map((name) => {
      const limits = DEFAULT_PLAN_TABLE[name];
      return limits ? { name, perMinute: limits.perMinute, perDay: limits.perDay } : { name };
    });
  }
}
