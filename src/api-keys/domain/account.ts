import type { KeyLimits } from '@petstore/auth';
import { assertLimitsFitPlan } from './api-key-policy.js';
import { KeyPlanFromAccountError, KeyPlanRequiredError } from './account.errors.js';

/**
 * A customer with several keys: its keys share its plan, its limits and its rate-limit
 * windows. `externalId` is the customer's id in the operator's own systems (unique).
 */
export interface Account {
  readonly id: number;
  readonly name: string;
  readonly plan: string;
  /** Own quota (enterprise accounts only, as for keys). */
  readonly limits: KeyLimits | null;
  readonly externalId: string | null;
  readonly createdAt: Date;
}

export interface NewAccount {
  readonly name: string;
  readonly plan: string;
  readonly limits: KeyLimits | null;
  readonly externalId: string | null;
}

/** Changes to an account; absent fields keep their value, `externalId: null` removes it. */
export interface AccountChanges {
  readonly name?: string;
  readonly plan?: string;
  readonly limits?: KeyLimits | null;
  readonly externalId?: string | null;
}

/** A plan and quota as asked for (absent: not asked). */
export interface QuotaRequest {
  readonly plan?: string;
  readonly limits?: KeyLimits | null;
}

/** A plan and quota as they stand. */
export interface Quota {
  readonly plan: string;
  readonly limits: KeyLimits | null;
}

/**
 * The plan and quota after a change: the plan asked for, else the current one; the limits
 * asked for, else the current ones while the plan stays enterprise (leaving enterprise
 * drops them). Checked against the plan (`assertLimitsFitPlan`).
 */
export function changedQuota(requested: QuotaRequest, current: Quota | null): Quota {
  const plan = requested.plan ?? current?.plan;
  if (plan === undefined) throw new KeyPlanRequiredError();
  const limits =
    requested.limits !== undefined ? requested.limits : plan === 'enterprise' ? (current?.limits ?? null) : null;
  assertLimitsFitPlan(plan, limits);
  return { plan, limits };
}

/**
 * What a key stores as its plan and quota. A key in an account has none of its own: asking
 * for one is refused (422), and it stores the account's plan without limits (what it shows
 * comes from the account as long as it stays in it). A key in no account keeps or changes
 * its own; one that leaves an account keeps the account's plan and limits unless given others.
 */
export function keyQuota(requested: QuotaRequest, account: Account | null, current: Quota | null): Quota {
  if (account) {
    if (requested.plan !== undefined || (requested.limits !== undefined && requested.limits !== null)) {
      throw new KeyPlanFromAccountError(account.id, requested.plan !== undefined ? 'plan' : 'limits');
    }
    return { plan: account.plan, limits: null };
  }
  return changedQuota(requested, current);
}
