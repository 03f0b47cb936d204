import { STATUS_BY_KIND } from '@petstore/errors';
import { type Account, changedQuota, keyQuota } from './account.js';
import { KeyPlanFromAccountError, KeyPlanRequiredError } from './account.errors.js';
import { KeyLimitsMismatchError, KeyLimitsOutOfOrderError } from './api-key.errors.js';

const account = (plan: string, limits: Account['limits'] = null): Account => ({
  id: 3,
  name: 'Acme',
  plan,
  limits,
  externalId: null,
  createdAt: new Date(0),
});
const OWN = { perMinute: 500, perDay: 50_000 };

describe('a key in an account (keyQuota)', () => {
  it("has no plan of its own: it stores the account's plan without limits", () => {
    expect(keyQuota({}, account('pro'), null)).toEqual({ plan: 'pro', limits: null });
    expect(keyQuota({}, account('enterprise', OWN), { plan: 'free', limits: null })).toEqual({
      plan: 'enterprise',
      limits: null,
    });
  });

  it('refuses a plan or limits given for it with 422 API_KEY_PLAN_FROM_ACCOUNT', () => {
    for (const requested of [{ plan: 'pro' }, { plan: 'free' }, { limits: OWN }]) {
      const refuse = () => keyQuota(requested, account('pro'), null);
      expect(refuse).toThrow(KeyPlanFromAccountError);
    }
    const error = new KeyPlanFromAccountError(3, 'plan');
    expect({ code: error.code, status: STATUS_BY_KIND[error.kind] }).toEqual({
      code: 'API_KEY_PLAN_FROM_ACCOUNT',
      status: 422,
    });
    expect(error.message).toContain('account 3');
  });

  it('lets limits: null through (it has none either way)', () => {
    expect(keyQuota({ limits: null }, account('free'), null)).toEqual({ plan: 'free', limits: null });
  });
});

describe('a key in no account (keyQuota without an account)', () => {
  it('needs a plan when it has none yet', () => {
    expect(() => keyQuota({}, null, null)).toThrow(KeyPlanRequiredError);
    expect(keyQuota({ plan: 'free' }, null, null)).toEqual({ plan: 'free', limits: null });
  });

  it("leaving an account keeps the account's plan and limits (the key's current ones) unless given others", () => {
    const inAccount = { plan: 'enterprise', limits: OWN };
    expect(keyQuota({}, null, inAccount)).toEqual(inAccount);
    expect(keyQuota({ plan: 'pro' }, null, inAccount)).toEqual({ plan: 'pro', limits: null });
    expect(keyQuota({ plan: 'free' }, null, { plan: 'pro', limits: null })).toEqual({ plan: 'free', limits: null });
  });

  it("checks limits against the plan as for any key's", () => {
    expect(() => keyQuota({ plan: 'pro', limits: OWN }, null, null)).toThrow(KeyLimitsMismatchError);
    expect(() => keyQuota({ plan: 'enterprise' }, null, null)).toThrow(KeyLimitsMismatchError);
    expect(() => keyQuota({ plan: 'enterprise', limits: { perMinute: 10, perDay: 5 } }, null, null)).toThrow(
      KeyLimitsOutOfOrderError,
    );
  });
});

describe("an account's plan (changedQuota)", () => {
  it('keeps enterprise limits while the plan stays enterprise, drops them when it leaves', () => {
    const current = { plan: 'enterprise', limits: OWN };
    expect(changedQuota({}, current)).toEqual(current);
    expect(changedQuota({ limits: { perMinute: 1, perDay: 1 } }, current)).toEqual({
      plan: 'enterprise',
      limits: { perMinute: 1, perDay: 1 },
    });
    expect(changedQuota({ plan: 'business' }, current)).toEqual({ plan: 'business', limits: null });
  });

  it('refuses limits on another plan, and enterprise without them', () => {
    expect(() => changedQuota({ plan: 'free', limits: OWN }, null)).toThrow(KeyLimitsMismatchError);
    expect(() => changedQuota({ plan: 'enterprise', limits: null }, null)).toThrow(KeyLimitsMismatchError);
  });
});
