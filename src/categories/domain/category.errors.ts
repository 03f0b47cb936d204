import { DomainError } from '@petstore/errors';

export class CategoryNotFoundError extends DomainError {
  readonly code = 'CATEGORY_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(id: number | string) {
    super(`Category ${id} does not exist`);
  }
}

export class CategoryNameTakenError extends DomainError {
  readonly code = 'CATEGORY_NAME_TAKEN';
  readonly kind = 'conflict';
  constructor(name: string) {
    super(`A category named '${name}' already exists (names are case-insensitive)`);
  }
}

export class CategoryInUseError extends DomainError {
  readonly code = 'CATEGORY_IN_USE';
  readonly kind = 'conflict';
  constructor(id: number) {
    super(`Category ${id} still has pets; move or delete them first`);
  }
}
