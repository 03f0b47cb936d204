import { DomainError } from '@petstore/errors';

export class AccountNotFoundError extends DomainError {
  readonly code = 'ACCOUNT_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(id: number | string) {
    super(`Account ${id} does not exist`);
  }
}

/** The body names an account that does not exist (422, not 404: the URL was fine). */
export class ReferencedAccountNotFoundError extends DomainError {
  readonly code = 'ACCOUNT_NOT_FOUND';
  readonly kind = 'unprocessable';
  constructor(accountId: number) {
    super(`accountId ${accountId} does not refer to an existing account`);
  }
}

/** An account is deleted only once none of its keys works any more. */
export class AccountHasLiveKeysError extends DomainError {
  readonly code = 'ACCOUNT_HAS_LIVE_KEYS';
  readonly kind = 'conflict';
  constructor(id: number) {
    super(`Account ${id} still has unrevoked API keys: revoke them or move them out of it first`);
  }
}

export class AccountExternalIdTakenError extends DomainError {
  readonly code = 'ACCOUNT_EXTERNAL_ID_TAKEN';
  readonly kind = 'conflict';
  constructor(externalId: string) {
    super(`Another account already has externalId ${JSON.stringify(externalId)}`);
  }
}

/** A key in an account takes the account's plan and limits; it cannot have its own. */
export class KeyPlanFromAccountError extends DomainError {
  readonly code = 'API_KEY_PLAN_FROM_ACCOUNT';
  readonly kind = 'unprocessable';
  constructor(accountId: number, field: 'plan' | 'limits') {
    super(
      `A key in account ${accountId} has the account's plan and limits: leave out ${field}, ` +
        "change the account's, or take the key out of the account (accountId: null)",
    );
  }
}

/** A key in no account needs a plan. */
export class KeyPlanRequiredError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly kind = 'validation';
  constructor() {
    super('Invalid request: plan is required for a key in no account (or give accountId)');
  }
}
