import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { API_KEY_STORE } from '@petstore/auth';
import { ApiKeysService } from './application/api-keys.service.js';
import { AdminApiKeysController } from './http/admin-api-keys.controller.js';
import { AdminPlansController } from './http/admin-plans.controller.js';
import { ApiKeyOrmEntity } from './infrastructure/api-key.orm-entity.js';
import { TypeOrmApiKeyStore } from './infrastructure/typeorm-api-key.store.js';

/** This module's tables, as TypeORM entities. */
export const API_KEY_ENTITIES = [ApiKeyOrmEntity];

/** Binds the auth library's key store port to PostgreSQL. */
@Module({
  imports: [TypeOrmModule.forFeature(API_KEY_ENTITIES)],
  providers: [{ provide: API_KEY_STORE, useClass: TypeOrmApiKeyStore }],
  exports: [API_KEY_STORE],
})
export class ApiKeyStoreModule {}

/** Key management: the /admin endpoints and the first-start admin key. */
@Module({
  imports: [ApiKeyStoreModule],
  controllers: [AdminApiKeysController, AdminPlansController],
  providers: [ApiKeysService],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
