import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RequireScope } from '@petstore/auth';
import type { Response } from 'express';
import { AppMetrics } from './app-metrics.js';

/**
 * GET /metrics in Prometheus text format, for keys with the admin scope. Not an
 * operation of the API document. With METRICS_PORT set it moves to that port
 * (`MetricsServer`) and `configureApp` hides it here.
 */
@ApiExcludeController()
@Controller('metrics')
@RequireScope('admin')
export class MetricsController {
  constructor(private readonly metrics: AppMetrics) {}

  @Get()
  async scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    const { contentType, body } = await this.metrics.scrape();
    res.type(contentType);
    return body;
  }
}
