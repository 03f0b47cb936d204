import { DomainError } from '@petstore/errors';
import type { KeyLimits } from '@petstore/auth';

export class ApiKeyNotFoundError extends DomainError {
  readonly code = 'API_KEY_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(id: number | string) {
    super(`API key ${id} does not exist`);
  }
}

/** Per-key limits are the enterprise plan's privilege, and enterprise keys need them. */
export class KeyLimitsMismatchError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly kind = 'validation';
  constructor(plan: string, hasLimits: boolean) {
    super(
      hasLimits
        ? `Invalid request: limits are allowed only for the enterprise plan, not '${plan}'`
        : 'Invalid request: limits ({perMinute, perDay}) are required for the enterprise plan',
    );
  }
}

/** The same rule as the plan table's: a per-day quota below the per-minute one could never be reached. */
export class KeyLimitsOutOfOrderError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly kind = 'validation';
  constructor(limits: KeyLimits) {
    super(`Invalid request: limits.perDay (${limits.perDay}) must not be below limits.perMinute (${limits.perMinute})`);
  }
}

/** A usage query whose dates are not days, are out of order or span too long. */
export class UsageRangeError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly kind = 'validation';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid request: ${problems.join('; ')}`);
  }
}

/** A key's lifecycle field out of bounds: an expiry in the past, an address rule that is none. */
export class KeyLifecycleError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly kind = 'validation';
  constructor(problem: string) {
    super(`Invalid request: ${problem}`);
  }
}
