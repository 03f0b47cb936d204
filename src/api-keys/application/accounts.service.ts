import { Injectable, Optional } from '@nestjs/common';
import { ApiKeyResolver, type KeyLimits } from '@petstore/auth';
import { Clock, systemClock } from '../../shared/clock.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import { type Account, changedQuota } from '../domain/account.js';
import { AccountHasLiveKeysError, AccountNotFoundError } from '../domain/account.errors.js';
import { AccountRepository } from '../domain/account.repository.js';
import { type DailyUsage, everyDay, utcDate } from '../domain/key-usage.js';
import { usageRange } from '../domain/key-usage-range.js';
import { KeyUsageRepository } from '../domain/key-usage.repository.js';

export interface NewAccountInput {
  readonly name: string;
  readonly plan: string;
  readonly limits?: KeyLimits | null;
  readonly externalId?: string | null;
}

export interface AccountUpdate {
  readonly name?: string;
  readonly plan?: string;
  readonly limits?: KeyLimits | null;
  /** null removes it. */
  readonly externalId?: string | null;
}

/**
 * Use cases for accounts: a customer's keys share its plan, limits and windows. A change of
 * plan or limits reaches this instance's cached keys at once, other instances' within the
 * key cache's time to live (their lookups read the account with the key).
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly usage: KeyUsageRepository,
    private readonly resolver: ApiKeyResolver,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  create(input: NewAccountInput): Promise<Account> {
    const { plan, limits } = changedQuota({ plan: input.plan, limits: input.limits ?? null }, null);
    return this.accounts.create({ name: input.name, plan, limits, externalId: input.externalId ?? null });
  }

  async list({ limit, afterId }: PageRequest): Promise<Page<Account>> {
    return toPage(await this.accounts.list(afterId, limit + 1), limit);
  }

  async get(id: number): Promise<Account> {
    const account = await this.accounts.findById(id);
    if (!account) throw new AccountNotFoundError(id);
    return account;
  }

  async update(id: number, changes: AccountUpdate): Promise<Account> {
    const current = await this.get(id);
    const { plan, limits } = changedQuota({ plan: changes.plan, limits: changes.limits }, current);
    const updated = await this.accounts.update(id, {
      name: changes.name,
      plan,
      limits,
      externalId: changes.externalId,
    });
    if (!updated) throw new AccountNotFoundError(id);
    this.resolver.invalidateAccount(id);
    return updated;
  }

  /** Deletes an account none of whose keys works any more (409 otherwise); its revoked keys stay, in no account. */
  async remove(id: number): Promise<void> {
    const outcome = await this.accounts.delete(id);
    if (outcome === 'not_found') throw new AccountNotFoundError(id);
    if (outcome === 'has_live_keys') throw new AccountHasLiveKeysError(id);
    this.resolver.invalidateAccount(id);
  }

  /** Every day of the range (default: the last 30 days), the usage of every key while it was in the account. */
  async daily(id: number, query: { readonly from?: string; readonly to?: string }): Promise<DailyUsage[]> {
    const { from, to } = usageRange(query, utcDate(this.clock.now().getTime()));
    await this.get(id);
    return everyDay(from, to, await this.usage.dailyOfAccount(id, from, to));
  }
}
