import { Injectable, Optional } from '@nestjs/common';
import { ApiKeyResolver, type KeyLimits } from '@petstore/auth';
import { type AuditContext, AuditTrail, changesBetween, isEmptyChange } from '../../audit/index.js';
import { Clock, systemClock } from '../../shared/clock.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import { UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { type Account, changedQuota } from '../domain/account.js';
import { AccountHasLiveKeysError, AccountNotFoundError } from '../domain/account.errors.js';
import { AccountRepository, TransactionalAccountRepository } from '../domain/account.repository.js';
import { type DailyUsage, everyDay, utcDate } from '../domain/key-usage.js';
import { usageRange } from '../domain/key-usage-range.js';
import { KeyUsageRepository } from '../domain/key-usage.repository.js';

/** The fields of an account that its audit entries show. */
const AUDITED_FIELDS = ['name', 'plan', 'limits', 'externalId'] as const satisfies readonly (keyof Account)[];

function accountTarget(id: number): { type: string; id: string } {
  return { type: 'account', id: String(id) };
}

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
 * key cache's time to live (their lookups read the account with the key). Every change is
 * recorded in the audit trail (`by`: who makes it; default the service itself), in the
 * transaction that makes it.
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly stores: TransactionalAccountRepository,
    private readonly uow: UnitOfWork,
    private readonly audit: AuditTrail,
    private readonly usage: KeyUsageRepository,
    private readonly resolver: ApiKeyResolver,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  create(input: NewAccountInput, by: AuditContext): Promise<Account> {
    const { plan, limits } = changedQuota({ plan: input.plan, limits: input.limits ?? null }, null);
    return this.uow.run(async (tx) => {
      const created = await this.stores
        .in(tx)
        .create({ name: input.name, plan, limits, externalId: input.externalId ?? null });
      await this.audit.record(tx, {
        ...by,
        action: 'account.created',
        target: accountTarget(created.id),
        changes: changesBetween(null, created, AUDITED_FIELDS),
      });
      return created;
    });
  }

  async list({ limit, afterId }: PageRequest): Promise<Page<Account>> {
    return toPage(await this.accounts.list(afterId, limit + 1), limit);
  }

  async get(id: number): Promise<Account> {
    const account = await this.accounts.findById(id);
    if (!account) throw new AccountNotFoundError(id);
    return account;
  }

  async update(id: number, changes: AccountUpdate, by: AuditContext): Promise<Account> {
    const updated = await this.uow.run(async (tx) => {
      const accounts = this.stores.in(tx);
      const current = await accounts.findById(id);
      if (!current) throw new AccountNotFoundError(id);
      const { plan, limits } = changedQuota({ plan: changes.plan, limits: changes.limits }, current);
      const after = await accounts.update(id, { name: changes.name, plan, limits, externalId: changes.externalId });
      if (!after) throw new AccountNotFoundError(id);
      const changed = changesBetween(current, after, AUDITED_FIELDS);
      if (!isEmptyChange(changed)) {
        await this.audit.record(tx, { ...by, action: 'account.updated', target: accountTarget(id), changes: changed });
      }
      return after;
    });
    this.resolver.invalidateAccount(id);
    return updated;
  }

  /** Deletes an account none of whose keys works any more (409 otherwise); its revoked keys stay, in no account. */
  async remove(id: number, by: AuditContext): Promise<void> {
    await this.uow.run(async (tx) => {
      const accounts = this.stores.in(tx);
      const current = await accounts.findById(id);
      const outcome = current ? await accounts.delete(id) : 'not_found';
      if (!current || outcome === 'not_found') throw new AccountNotFoundError(id);
      if (outcome === 'has_live_keys') throw new AccountHasLiveKeysError(id);
      await this.audit.record(tx, {
        ...by,
        action: 'account.deleted',
        target: accountTarget(id),
        changes: changesBetween(current, null, AUDITED_FIELDS),
      });
    });
    this.resolver.invalidateAccount(id);
  }

  /** Every day of the range (default: the last 30 days), the usage of every key while it was in the account. */
  async daily(id: number, query: { readonly from?: string; readonly to?: string }): Promise<DailyUsage[]> {
    const { from, to } = usageRange(query, utcDate(this.clock.now().getTime()));
    await this.get(id);
    return everyDay(from, to, await this.usage.dailyOfAccount(id, from, to));
  }
}
