/** The loyalty module's public entry: what the composition root (and its tests) import. */
export { POINTS_PER_UNIT } from './domain/loyalty-points.js';
export type { LoyaltyPointsRepository } from './domain/loyalty-points.repository.js';
export { LoyaltyAccountNotFoundError, LoyaltyPointsSpentError } from './domain/loyalty.errors.js';
export { LoyaltyService } from './application/loyalty.service.js';
export { LOYALTY_ENTITIES, LOYALTY_MIGRATIONS, LoyaltyModule } from './loyalty.module.js';
