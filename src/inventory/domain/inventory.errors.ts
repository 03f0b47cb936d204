import { DomainError } from '@petstore/errors';

/** More units asked of an inventory line than it holds: an order's refusal, and the adapters' guard against negative stock. */
export class InsufficientStockError extends DomainError {
  readonly code = 'INSUFFICIENT_STOCK';
  readonly kind = 'conflict';
  constructor(petId: number, inStock: number, wanted: number) {
    super(`Pet ${petId} has ${inStock} unit(s) in stock; ${wanted} requested`);
  }
}
