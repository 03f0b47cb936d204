import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import { PLAN_NAMES } from '../../rate-limits/plan.js';
import { PlanTableService } from '../../rate-limits/plan-table.js';
import { Stability } from '../../shared/http/api-docs.js';
import { PlanResponse } from './dto/plan.response.js';
import { PlanTableLoadsResponse } from './dto/plan-table-loads.response.js';

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

  @Get('loads')
  @Stability('beta')
  @ApiOperation({
    operationId: 'getPlanTableLoads',
    summary: 'When this instance last read the plan table',
    description:
      'When the instance that answers read the table in force (start-up or the last reload that succeeded), and ' +
      'how its last reload went: whether an edit of the plans file (or a SIGHUP) has applied.',
  })
  @ApiOkResponse({ type: PlanTableLoadsResponse, description: 'The loads of the plan table' })
  loads(): PlanTableLoadsResponse {
    return PlanTableLoadsResponse.from(this.plans.loads());
  }
}
