import { DomainError } from '@petstore/errors';

export class PetNotAvailableError extends DomainError {
  readonly code = 'PET_NOT_AVAILABLE';
  readonly kind = 'conflict';
  constructor(petId: number, status: string) {
    super(`Pet ${petId} is ${status}, not available for ordering`);
  }
}

export class InsufficientStockError extends DomainError {
  readonly code = 'INSUFFICIENT_STOCK';
  readonly kind = 'conflict';
  constructor(petId: number, inStock: number, wanted: number) {
    super(`Pet ${petId} has ${inStock} unit(s) in stock; ${wanted} requested`);
  }
}
