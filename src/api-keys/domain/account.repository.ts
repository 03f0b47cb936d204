import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { Account, AccountChanges, NewAccount } from './account.js';

/** What deleting an account came to. */
export type AccountDeletion = 'deleted' | 'not_found' | 'has_live_keys';

/** Where accounts are kept. A duplicate `externalId` is refused with `AccountExternalIdTakenError`. */
export abstract class AccountRepository {
  abstract create(account: NewAccount): Promise<Account>;
  abstract findById(id: number): Promise<Account | null>;
  /** Accounts with id > afterId, ascending, at most `limit`. */
  abstract list(afterId: number | null, limit: number): Promise<Account[]>;
  /** The account as changed, or null when there is none. */
  abstract update(id: number, changes: AccountChanges): Promise<Account | null>;
  /**
   * Deletes the account unless one of its keys is unrevoked, atomically with respect to keys
   * joining it meanwhile; its revoked keys are left in no account.
   */
  abstract delete(id: number): Promise<AccountDeletion>;
}

/**
 * Port: the account repository in an open transaction, so that a change of an account and
 * its audit entry commit together. Its `findById` locks the account's row until the commit,
 * so the `before` of a change is what the change replaced.
 */
export abstract class TransactionalAccountRepository {
  abstract in(tx: Transaction): AccountRepository;
}
