import { type Account, allPages, api, type ApiKey, type Ban, call, type KeyLimits, type PlanQuota } from '../api.js';

export function loadKeys(accountId?: number): Promise<ApiKey[]> {
  return allPages((cursor) =>
    api.GET('/admin/api-keys', { params: { query: { limit: 100, cursor, ...(accountId ? { accountId } : {}) } } }),
  );
}

export function loadAccounts(): Promise<Account[]> {
  return allPages((cursor) => api.GET('/admin/accounts', { params: { query: { limit: 100, cursor } } }));
}

export function loadBans(): Promise<Ban[]> {
  return call(api.GET('/admin/bans'));
}

export function loadPlans(): Promise<PlanQuota[]> {
  return call(api.GET('/admin/plans'));
}

/** A key's or an account's daily quota: its own limits (enterprise), else its plan's. */
export function dailyQuota(
  owner: { plan: string; limits?: KeyLimits },
  plans: readonly PlanQuota[],
): number | undefined {
  return owner.limits?.perDay ?? plans.find((plan) => plan.name === owner.plan)?.perDay;
}

export type KeyState = 'active' | 'revoked' | 'expired' | 'banned' | 'rolling';

export function keyState(key: ApiKey, bans: readonly Ban[], now = Date.now()): KeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  if (bans.some((ban) => ban.kind === 'key' && ban.keyId === key.id)) return 'banned';
  if (key.previousKeyExpiresAt && Date.parse(key.previousKeyExpiresAt) > now) return 'rolling';
  return 'active';
}
