import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { appConfig } from '../config/app.config.js';
import { buildDataSourceOptions } from './data-source-options.js';

/** The PostgreSQL connection; migrations are applied on connect. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: ConfigType<typeof appConfig>) => {
        if (!config.databaseUrl) throw new Error('DATABASE_URL must be resolved before the app module starts');
        return { ...buildDataSourceOptions(config.databaseUrl), retryAttempts: 3, retryDelay: 1_000 };
      },
    }),
  ],
})
export class DatabaseModule {}
