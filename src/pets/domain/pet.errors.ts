import { DomainError } from '@petstore/errors';

export class PetNotFoundError extends DomainError {
  readonly code = 'PET_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(id: number | string) {
    super(`Pet ${id} does not exist`);
  }
}

/** The body names a category that does not exist (422, not 404: the URL was fine). */
export class PetCategoryNotFoundError extends DomainError {
  readonly code = 'CATEGORY_NOT_FOUND';
  readonly kind = 'unprocessable';
  constructor(categoryId: number) {
    super(`categoryId ${categoryId} does not refer to an existing category`);
  }
}

/** The deprecated operation is past its sunset date. */
export class OperationSunsetError extends DomainError {
  readonly code = 'OPERATION_SUNSET';
  readonly kind = 'gone';
  constructor(operation: string, successor: string, sunset: Date) {
    super(`${operation} was withdrawn on ${sunset.toISOString()}; use ${successor}`);
  }
}

export class PetHasOrdersError extends DomainError {
  readonly code = 'PET_HAS_ORDERS';
  readonly kind = 'conflict';
  constructor(id: number) {
    super(`Pet ${id} is referenced by orders and cannot be deleted`);
  }
}
