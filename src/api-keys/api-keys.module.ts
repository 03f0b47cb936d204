import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyStore } from '@petstore/auth';
import { type AppConfig, appConfig } from '../config/app.config.js';
import { KeyUsageMeter } from '../rate-limits/key-usage-meter.js';
import { ApiKeysService } from './application/api-keys.service.js';
import { KeyUsageRecorder } from './application/key-usage-recorder.js';
import { KeyUsageSchedule } from './application/key-usage-schedule.js';
import { KeyUsageService } from './application/key-usage.service.js';
import { KeyUsageRepository } from './domain/key-usage.repository.js';
import { UsageExportRepository } from './domain/usage-export.repository.js';
import { UsageExportService } from './application/usage-export.service.js';
import { AdminUsageController } from './http/admin-usage.controller.js';
import { TypeOrmUsageExportRepository } from './infrastructure/typeorm-usage-export.repository.js';
import { AdminApiKeysController } from './http/admin-api-keys.controller.js';
import { AdminPlansController } from './http/admin-plans.controller.js';
import { ApiKeyOrmEntity } from './infrastructure/api-key.orm-entity.js';
import { KeyUsageOrmEntity } from './infrastructure/key-usage.orm-entity.js';
import { ApiKeyUsage1795219200000 } from './infrastructure/migrations/1795219200000-api-key-usage.js';
import { ApiKeyLifecycle1795859934000 } from './infrastructure/migrations/1795859934000-api-key-lifecycle.js';
import { TypeOrmApiKeyStore } from './infrastructure/typeorm-api-key.store.js';
import { AccountsService } from './application/accounts.service.js';
import { AccountRepository, TransactionalAccountRepository } from './domain/account.repository.js';
import { AdminAccountsController } from './http/admin-accounts.controller.js';
import { AccountOrmEntity } from './infrastructure/account.orm-entity.js';
import { Accounts1795867800000 } from './infrastructure/migrations/1795867800000-accounts.js';
import { TypeOrmAccountRepository } from './infrastructure/typeorm-account.repository.js';
import { TypeOrmKeyUsageRepository } from './infrastructure/typeorm-key-usage.repository.js';
import { AuditTrailModule } from '../audit/index.js';
import { TransactionalApiKeyStore } from './domain/transactional-api-key.store.js';

/** This module's tables, as TypeORM entities. */
export const API_KEY_ENTITIES = [ApiKeyOrmEntity, KeyUsageOrmEntity, AccountOrmEntity];

/** This module's migrations since the core ones (the api_keys table is in CORE_MIGRATIONS). */
export const API_KEY_MIGRATIONS = [ApiKeyUsage1795219200000, ApiKeyLifecycle1795859934000, Accounts1795867800000];

/** Binds the auth library's key store port to PostgreSQL (a key is read with its account). */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyOrmEntity, AccountOrmEntity])],
  providers: [
    { provide: ApiKeyStore, useClass: TypeOrmApiKeyStore },
    { provide: TransactionalApiKeyStore, useExisting: ApiKeyStore },
  ],
  exports: [ApiKeyStore, TransactionalApiKeyStore],
})
export class ApiKeyStoreModule {}

/** Daily usage per key, as stored: the reads behind GET /admin/api-keys/{keyId}/usage. */
@Module({
  imports: [TypeOrmModule.forFeature([KeyUsageOrmEntity]), ApiKeyStoreModule],
  providers: [
    { provide: KeyUsageRepository, useClass: TypeOrmKeyUsageRepository },
    KeyUsageService,
    { provide: UsageExportRepository, useClass: TypeOrmUsageExportRepository },
    UsageExportService,
  ],
  exports: [KeyUsageRepository, KeyUsageService, UsageExportService],
})
export class KeyUsageModule {}

/**
 * The recorder that the rate limiter tells of every counted request, refusal and
 * ban (`KeyUsageMeter`), flushed to PostgreSQL in batches and at shutdown. Only
 * the serving application imports it (through `RateLimitsModule.forRoot`), so a
 * command-line tool that issues keys runs no flush or sweep timers. The timers are
 * `@nestjs/schedule`'s (`KeyUsageSchedule`): the application imports `ScheduleModule.forRoot()`.
 */
@Module({
  imports: [KeyUsageModule],
  providers: [
    {
      provide: KeyUsageRecorder,
      inject: [KeyUsageRepository, appConfig.KEY],
      useFactory: (repository: KeyUsageRepository, config: AppConfig) =>
        new KeyUsageRecorder(repository, config.keyUsage),
    },
    { provide: KeyUsageMeter, useExisting: KeyUsageRecorder },
    KeyUsageSchedule,
  ],
  exports: [KeyUsageMeter, KeyUsageRecorder],
})
export class KeyUsageMeterModule {}

/** Key and account management: the /admin endpoints and the first-start admin key. */
@Module({
  imports: [ApiKeyStoreModule, KeyUsageModule, AuditTrailModule, TypeOrmModule.forFeature([AccountOrmEntity])],
  controllers: [AdminApiKeysController, AdminAccountsController, AdminPlansController, AdminUsageController],
  providers: [
    ApiKeysService,
    AccountsService,
    { provide: AccountRepository, useClass: TypeOrmAccountRepository },
    { provide: TransactionalAccountRepository, useExisting: AccountRepository },
  ],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
