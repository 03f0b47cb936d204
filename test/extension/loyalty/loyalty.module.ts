import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoyaltyService } from './application/loyalty.service.js';
import { LoyaltyPointsRepository } from './domain/loyalty-points.repository.js';
import { LoyaltyController } from './http/loyalty.controller.js';
import { LoyaltyPointsOrmEntity } from './infrastructure/loyalty-points.orm-entity.js';
import { LoyaltyPoints1795000000000 } from './infrastructure/migrations/1795000000000-loyalty-points.js';
import { TypeOrmLoyaltyPointsRepository } from './infrastructure/typeorm-loyalty-points.repository.js';

/** This module's tables, as TypeORM entities (auto-loaded by the app; listed for the TypeORM CLI). */
export const LOYALTY_ENTITIES = [LoyaltyPointsOrmEntity];

/** This module's migrations, in order: the composition root runs them after the core's. */
export const LOYALTY_MIGRATIONS = [LoyaltyPoints1795000000000];

/** Loyalty points per API key, kept by subscribing to the orders' events: GET /loyalty/{keyId}. */
@Module({
  imports: [TypeOrmModule.forFeature(LOYALTY_ENTITIES)],
  controllers: [LoyaltyController],
  providers: [LoyaltyService, { provide: LoyaltyPointsRepository, useClass: TypeOrmLoyaltyPointsRepository }],
})
export class LoyaltyModule {}
