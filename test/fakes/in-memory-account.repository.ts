import type { Account, AccountChanges, NewAccount } from '../../src/api-keys/domain/account.js';
import { AccountExternalIdTakenError } from '../../src/api-keys/domain/account.errors.js';
import type { AccountDeletion, AccountRepository } from '../../src/api-keys/domain/account.repository.js';

/**
 * Accounts in a map, ids from a sequence, `externalId` unique as the table's constraint
 * makes it. `hasLiveKeys` tells `delete` whether unrevoked keys name an account (the
 * key store's business); by default none does.
 */
export class InMemoryAccountRepository implements AccountRepository {
  private readonly rows = new Map<number, Account>();
  private lastId = 0;

  constructor(
    private readonly hasLiveKeys: (accountId: number) => Promise<boolean> = () => Promise.resolve(false),
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(account: NewAccount): Promise<Account> {
    this.assertExternalIdFree(account.externalId, null);
    const created: Account = { ...account, id: ++this.lastId, createdAt: this.now() };
    this.rows.set(created.id, created);
    return created;
  }

  async findById(id: number): Promise<Account | null> {
    return this.rows.get(id) ?? null;
  }

  async list(afterId: number | null, limit: number): Promise<Account[]> {
    return [...this.rows.values()]
      .filter((a) => afterId === null || a.id > afterId)
      .sort((a, b) => a.id - b.id)
      .slice(0, limit);
  }

  async update(id: number, changes: AccountChanges): Promise<Account | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    if (changes.externalId !== undefined) this.assertExternalIdFree(changes.externalId, id);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const updated: Account = { ...row, ...defined };
    this.rows.set(id, updated);
    return updated;
  }

  async delete(id: number): Promise<AccountDeletion> {
    if (!this.rows.has(id)) return 'not_found';
    if (await this.hasLiveKeys(id)) return 'has_live_keys';
    this.rows.delete(id);
    return 'deleted';
  }

  private assertExternalIdFree(externalId: string | null, self: number | null): void {
    if (externalId === null) return;
    for (const account of this.rows.values()) {
      if (account.externalId === externalId && account.id !== self) throw new AccountExternalIdTakenError(externalId);
    }
  }
}
