import { DomainError } from '@petstore/errors';

export class OrderNotFoundError extends DomainError {
  readonly code = 'ORDER_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(id: number | string) {
    super(`Order ${id} does not exist`);
  }
}

export class OrderAlreadyCompleteError extends DomainError {
  readonly code = 'ORDER_ALREADY_COMPLETE';
  readonly kind = 'conflict';
  constructor(id: number) {
    super(`Order ${id} is already complete`);
  }
}

/** The order names a pet that does not exist (422: the URL was fine, the body was not). */
export class OrderPetNotFoundError extends DomainError {
  readonly code = 'PET_NOT_FOUND';
  readonly kind = 'unprocessable';
  constructor(petId: number) {
    super(`petId ${petId} does not refer to an existing pet`);
  }
}

export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  readonly kind = 'conflict';
  constructor() {
    super('This Idempotency-Key was already used with a different request body');
  }
}

/** An order for a pet that is not `available` (pending or sold). */
export class PetNotAvailableError extends DomainError {
  readonly code = 'PET_NOT_AVAILABLE';
  readonly kind = 'conflict';
  constructor(petId: number, status: string) {
    super(`Pet ${petId} is ${status}, not available for ordering`);
  }
}
