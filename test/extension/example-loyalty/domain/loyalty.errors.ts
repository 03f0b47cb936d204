import { DomainError } from '@petstore/errors';

/** Another key's points: "not found", never "forbidden", as for orders. */
export class LoyaltyAccountNotFoundError extends DomainError {
  readonly code = 'EXAMPLE_LOYALTY_ACCOUNT_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(keyId: number | string) {
    super(`No loyalty points of key ${keyId} are visible to this key`);
  }
}

/** The points an order earned were spent since: cancelling it would take the balance below zero. */
export class LoyaltyPointsSpentError extends DomainError {
  readonly code = 'EXAMPLE_LOYALTY_POINTS_SPENT';
  readonly kind = 'conflict';
  constructor(points: number) {
    super(`The ${points} loyalty points this order earned were spent, so it can no longer be cancelled`);
  }
}
