/** The loyalty module's public entry: what the composition root (and its tests) import. */
export { POINTS_PER_UNIT } from './domain/loyalty-points.js';
export type { LoyaltyPointsRepository } from './domain/loyalty-points.repository.js';
export { LoyaltyAccountNotFoundError, LoyaltyPointsSpentError } from './domain/loyalty.errors.js';
export { ExampleLoyaltyService } from './application/loyalty.service.js';
export { EXAMPLE_LOYALTY_ENTITIES, EXAMPLE_LOYALTY_MIGRATIONS, ExampleLoyaltyModule } from './loyalty.module.js';
