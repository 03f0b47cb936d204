import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReviewsService } from './application/reviews.service.js';
import { ReviewsController } from './http/reviews.controller.js';
import { PetReviews1796000000000 } from './infrastructure/migrations/1796000000000-pet-reviews.js';
import { PetPurchaseOrmEntity } from './infrastructure/pet-purchase.orm-entity.js';
import { ReviewOrmEntity } from './infrastructure/review.orm-entity.js';

/** This module's tables, as TypeORM entities (auto-loaded by the app; listed for the TypeORM CLI). */
export const REVIEWS_ENTITIES = [ReviewOrmEntity, PetPurchaseOrmEntity];

/** This module's migrations, in order: the composition root runs them after the core's. */
export const REVIEWS_MIGRATIONS = [PetReviews1796000000000];

/** Reviews of pets: POST /pets/{petId}/reviews, GET /reviews, DELETE /reviews/{reviewId}. */
@Module({
  imports: [TypeOrmModule.forFeature(REVIEWS_ENTITIES)],
  controllers: [ReviewsController],
  providers: [ReviewsService],
})
export class ReviewsModule {}
