import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { PlanTableLoads } from '../../../rate-limits/plan-table.js';

@ApiSchema({
  name: 'PlanTableLoads',
  description:
    'When the instance that answers read the plan table in force, and how its last attempt to re-read it went ' +
    '(on SIGHUP or a change of the file). Each instance reads the file itself: instances may differ for a moment.',
})
export class PlanTableLoadsResponse {
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When the table in force was read: at start-up, or by the last reload that succeeded',
    example: '2026-11-28T09:41:07.000Z',
  })
  loadedAt!: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'The last attempt to re-read the table since start-up. Absent: none yet',
    example: '2026-11-28T10:02:31.000Z',
  })
  lastReloadAt?: string;

  @ApiPropertyOptional({
    description:
      'Whether that attempt succeeded; a failed one (a bad file) kept the table in force and logged why. Absent: none yet',
    example: true,
  })
  lastReloadSucceeded?: boolean;

  static from({ loadedAt, lastReload }: PlanTableLoads): PlanTableLoadsResponse {
    const response = Object.assign(new PlanTableLoadsResponse(), { loadedAt: loadedAt.toISOString() });
    if (lastReload) {
      response.lastReloadAt = lastReload.at.toISOString();
      response.lastReloadSucceeded = lastReload.succeeded;
    }
    return response;
  }
}
