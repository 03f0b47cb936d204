import { DomainError, type ErrorKind } from '@petstore/errors';

/** A refusal stored under an Idempotency-Key, answered again exactly as the first time. */
export class ReplayedRefusal extends DomainError {
  constructor(
    readonly code: string,
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}
