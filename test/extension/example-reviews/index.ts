/** The reviews module's public entry: what the composition root (and its tests) import. */
export type { Review } from './domain/review.js';
export { ReviewedPetNotFoundError, ReviewNotFoundError } from './domain/review.errors.js';
export { TOTAL_COUNT_HEADER } from './http/reviews.controller.js';
export { EXAMPLE_REVIEWS_ENTITIES, EXAMPLE_REVIEWS_MIGRATIONS, ExampleReviewsModule } from './reviews.module.js';
