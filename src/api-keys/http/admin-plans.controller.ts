import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import { PLAN_NAMES } from '../../rate-limits/plan.js';
import { PlanTableService } from '../../rate-limits/plan-table.js';
import { Stability } from '../../shared/http/api-docs.js';
import { PlanResponse } from './dto/plan.response.js';

@ApiTags('Store')
@Controller('admin/plans')
@RequireScope('admin')
export class AdminPlansController {
  constructor(private readonly plans: PlanTableService) {}

  @Get()
  @Stability('beta')
  @ApiOperation({
    operationId: 'listPlans',
    summary: 'The effective plan table',
    description:
      'Quotas per plan in force now: the plans file with its environment overrides, as last (re)loaded; ' +
      'enterprise quotas are set per key.',
  })
  @ApiOkResponse({ type: [PlanResponse], description: 'Every plan' })
  list(): PlanResponse[] {
    return PLAN_NAMES.map((name) => PlanResponse.from(name, this.plans.limitsOf(name)));
  }
}
