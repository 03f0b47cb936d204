import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { appConfig } from '../config/app.config.js';
import { DomainEventBus, DomainEventSubscriptions } from '../shared/domain-events/domain-events.js';
import { UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';
import { buildDataSourceOptions, type DatabaseSchema } from './data-source-options.js';
import { runMigrations } from './run-migrations.js';
import { TypeOrmUnitOfWork } from './typeorm-unit-of-work.js';

/**
 * The PostgreSQL connection (migrations applied on connect), the unit of work over
 * it, and its domain-event subscriptions. Entities come from the modules
 * (`TypeOrmModule.forFeature`, auto-loaded); migrations from the composition root,
 * which lists every module's.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(schema: Omit<DatabaseSchema, 'entities'>): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [appConfig.KEY],
          useFactory: (config: ConfigType<typeof appConfig>) => {
            if (!config.databaseUrl) throw new Error('DATABASE_URL must be resolved before the app module starts');
            return {
              ...buildDataSourceOptions(config.databaseUrl, schema),
              autoLoadEntities: true,
              retryAttempts: 3,
              retryDelay: 1_000,
            };
          },
          // Connects, then migrates: each attempt of the retries above does both.
          dataSourceFactory: async (options?: DataSourceOptions) => {
            if (!options) throw new Error('the connection options are missing');
            const dataSource = await new DataSource(options).initialize();
            try {
              await runMigrations(dataSource, schema.renamedMigrations);
            } catch (error) {
              await dataSource.destroy().catch(() => undefined);
              throw error;
            }
            return dataSource;
          },
        }),
      ],
      providers: [
        DomainEventBus,
        // The subscriptions are the bus's; the unit of work dispatches through it.
        { provide: DomainEventSubscriptions, useExisting: DomainEventBus },
        { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
      ],
      exports: [UnitOfWork, DomainEventSubscriptions],
    };
  }
}
