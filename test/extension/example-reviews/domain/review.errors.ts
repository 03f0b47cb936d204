import { DomainError } from '@petstore/errors';

/** A review that does not exist, or that the caller may not delete: "not found", never "forbidden". */
export class ReviewNotFoundError extends DomainError {
  readonly code = 'EXAMPLE_REVIEW_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(id: number | string) {
    super(`Review ${id} does not exist`);
  }
}

/** A review of a pet that does not exist. */
export class ReviewedPetNotFoundError extends DomainError {
  readonly code = 'PET_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(petId: number | string) {
    super(`Pet ${petId} does not exist`);
  }
}
