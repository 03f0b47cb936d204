import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_PIPE, DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AuthModule } from '@petstore/auth';
import { AllExceptionsFilter, discoverRoutes, RouteCatalog } from '@petstore/errors';
import { ApiKeyStoreModule, ApiKeysModule, FirstAdminKey, KeyUsageMeterModule } from './api-keys/index.js';
import { AuditModule } from './audit/index.js';
import { CategoriesModule } from './categories/index.js';
import { appConfig } from './config/app.config.js';
import { ConsoleModule } from './console/console.module.js';
import { DatabaseModule } from './database/database.module.js';
import { SCHEMA } from './app.schema.js';
import type { DatabaseSchema } from './database/data-source-options.js';
import { DemoCatalogue } from './demo/demo-catalogue.js';
import { HealthModule } from './health/health.module.js';
import { InventoryModule } from './inventory/index.js';
import { LifecycleModule } from './lifecycle/lifecycle.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OrdersModule } from './orders/index.js';
import { PetsModule } from './pets/index.js';
import { RateLimitsModule } from './rate-limits/rate-limits.module.js';
import { createValidationPipe } from './shared/http/validation.pipe.js';
import { Clock } from './shared/clock.js';
import { WebhooksModule } from './webhooks/index.js';

/** What a team brings to the composed application: its modules, and the migrations of their tables. */
export interface AppExtensions {
  readonly modules?: NonNullable<ModuleMetadata['imports']>;
  readonly migrations?: DatabaseSchema['migrations'];
}

/**
 * Composition root: every module of the service, the database with every
 * module's migrations, the global filter and validation, and the scheduler that
 * runs the modules' periodic sweeps and flushes (`@Interval`, `SchedulerRegistry`). `register(extensions)`
 * adds a team's modules and migrations without editing anything else.
 */
@Module({})
export class AppModule {
  static register(extensions: AppExtensions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig] }),
        ScheduleModule.forRoot(),
        DiscoveryModule,
        LoggingModule,
        LifecycleModule,
        DatabaseModule.forRoot({
          migrations: [...SCHEMA.migrations, ...(extensions.migrations ?? [])],
          renamedMigrations: SCHEMA.renamedMigrations,
        }),
        MetricsModule,
        AuthModule.forRoot({ storeModule: ApiKeyStoreModule, clock: Clock }),
        RateLimitsModule.forRoot({ usageModule: KeyUsageMeterModule }),
        ApiKeysModule,
        AuditModule,
        CategoriesModule,
        PetsModule,
        OrdersModule,
        InventoryModule,
        WebhooksModule,
        HealthModule,
        ConsoleModule.register(),
        ...(extensions.modules ?? []),
      ],
      providers: [
        FirstAdminKey,
        DemoCatalogue,
        // Every controller's routes, for 405 vs 404 and the route of a request refused before routing.
        {
          provide: RouteCatalog,
          inject: [DiscoveryService],
          useFactory: (d: DiscoveryService) => new RouteCatalog(discoverRoutes(d)),
        },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
