import { Global, Module } from '@nestjs/common';
import { type AppConfig, appConfig } from '../config/app.config.js';
import { PlanTableService } from './plan-table.js';

/** The plan table in force (config/plans.yaml with its environment overrides), re-read when the file changes. */
@Global()
@Module({
  providers: [
    {
      provide: PlanTableService,
      inject: [appConfig.KEY],
      useFactory: ({ rateLimit }: AppConfig) => {
        const plans = new PlanTableService({
          file: rateLimit.plansFile,
          required: rateLimit.plansFileRequired,
          overrides: rateLimit.planOverrides,
        });
        if (rateLimit.enabled && rateLimit.plansWatchIntervalMs > 0) plans.watch(rateLimit.plansWatchIntervalMs);
        return plans;
      },
    },
  ],
  exports: [PlanTableService],
})
export class PlansModule {}
