import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExampleReviewsService } from './application/reviews.service.js';
import { ExampleReviewsController } from './http/reviews.controller.js';
import { ExamplePetReviews1795564800000 } from './infrastructure/migrations/1795564800000-example-pet-reviews.js';
import { ExamplePetPurchaseOrmEntity } from './infrastructure/pet-purchase.orm-entity.js';
import { ExampleReviewOrmEntity } from './infrastructure/review.orm-entity.js';

/** This module's tables, as TypeORM entities (auto-loaded by the app; listed for the TypeORM CLI). */
export const EXAMPLE_REVIEWS_ENTITIES = [ExampleReviewOrmEntity, ExamplePetPurchaseOrmEntity];

/** This module's migrations, in order: the composition root runs them after the core's. */
export const EXAMPLE_REVIEWS_MIGRATIONS = [ExamplePetReviews1795564800000];

/** Reviews of pets: POST /examples/pets/{petId}/reviews, GET /examples/reviews, DELETE /examples/reviews/{reviewId}. */
@Module({
  imports: [TypeOrmModule.forFeature(EXAMPLE_REVIEWS_ENTITIES)],
  controllers: [ExampleReviewsController],
  providers: [ExampleReviewsService],
})
export class ExampleReviewsModule {}
