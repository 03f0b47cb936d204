import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExampleLoyaltyService } from './application/loyalty.service.js';
import { LoyaltyPointsRepository } from './domain/loyalty-points.repository.js';
import { ExampleLoyaltyController } from './http/loyalty.controller.js';
import { ExampleLoyaltyPointsOrmEntity } from './infrastructure/loyalty-points.orm-entity.js';
import { ExampleLoyaltyPoints1795478400000 } from './infrastructure/migrations/1795478400000-example-loyalty-points.js';
import { TypeOrmLoyaltyPointsRepository } from './infrastructure/typeorm-loyalty-points.repository.js';

/** This module's tables, as TypeORM entities (auto-loaded by the app; listed for the TypeORM CLI). */
export const EXAMPLE_LOYALTY_ENTITIES = [ExampleLoyaltyPointsOrmEntity];

/** This module's migrations, in order: the composition root runs them after the core's. */
export const EXAMPLE_LOYALTY_MIGRATIONS = [ExampleLoyaltyPoints1795478400000];

/** Loyalty points per API key, kept by subscribing to the orders' events: GET /examples/loyalty/{keyId}. */
@Module({
  imports: [TypeOrmModule.forFeature(EXAMPLE_LOYALTY_ENTITIES)],
  controllers: [ExampleLoyaltyController],
  providers: [ExampleLoyaltyService, { provide: LoyaltyPointsRepository, useClass: TypeOrmLoyaltyPointsRepository }],
})
export class ExampleLoyaltyModule {}
