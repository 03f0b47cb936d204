import { SYSTEM } from '../../audit/index.js';
import { ApiKeyResolver } from '@petstore/auth';
import { STATUS_BY_KIND } from '@petstore/errors';
import {
  InMemoryAccountRepository,
  InMemoryApiKeyStore,
  type InMemoryAuditLogRepository,
  inMemoryAuditTrail,
  InMemoryKeyUsageRepository,
} from '../../../test/fakes/index.js';
import { loadAppConfig } from '../../config/app.config.js';
import {
  AccountExternalIdTakenError,
  AccountHasLiveKeysError,
  AccountNotFoundError,
  KeyPlanFromAccountError,
  ReferencedAccountNotFoundError,
} from '../domain/account.errors.js';
import { AccountsService } from './accounts.service.js';
import { ApiKeysService } from './api-keys.service.js';

const statusOf = (error: unknown) =>
  error instanceof AccountNotFoundError ||
  error instanceof AccountHasLiveKeysError ||
  error instanceof AccountExternalIdTakenError ||
  error instanceof ReferencedAccountNotFoundError ||
  error instanceof KeyPlanFromAccountError
    ? { code: error.code, status: STATUS_BY_KIND[error.kind] }
    : error;

async function refusal(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return statusOf(error);
  }
  throw new Error('expected a refusal');
}

describe('AccountsService and keys in accounts', () => {
  let store: InMemoryApiKeyStore;
  let resolver: ApiKeyResolver;
  let usage: InMemoryKeyUsageRepository;
  let accounts: AccountsService;
  let keys: ApiKeysService;
  let audit: InMemoryAuditLogRepository;

  beforeEach(() => {
    store = new InMemoryApiKeyStore();
    const repository = new InMemoryAccountRepository((id) => store.hasLiveKeys(id));
    resolver = new ApiKeyResolver(store);
    usage = new InMemoryKeyUsageRepository();
    const { log, uow, trail } = inMemoryAuditTrail();
    audit = log;
    accounts = new AccountsService(repository, { in: () => repository }, uow, trail, usage, resolver);
    keys = new ApiKeysService(store, { in: () => store }, uow, trail, resolver, repository, loadAppConfig({}));
  });

  it('creates, reads, changes and lists accounts; externalId is unique (409)', async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro', externalId: 'cus_1' }, SYSTEM);
    expect(acme).toMatchObject({ id: 1, name: 'Acme', plan: 'pro', limits: null, externalId: 'cus_1' });
    expect(await refusal(accounts.create({ name: 'Other', plan: 'free', externalId: 'cus_1' }, SYSTEM))).toEqual({
      code: 'ACCOUNT_EXTERNAL_ID_TAKEN',
      status: 409,
    });
    const other = await accounts.create({ name: 'Other', plan: 'free' }, SYSTEM);
    expect(await refusal(accounts.update(other.id, { externalId: 'cus_1' }, SYSTEM))).toMatchObject({ status: 409 });
    expect(await accounts.update(acme.id, { externalId: null, name: 'Acme Ltd' }, SYSTEM)).toMatchObject({
      name: 'Acme Ltd',
      externalId: null,
      plan: 'pro',
    });
    expect((await accounts.list({ limit: 1, afterId: null })).hasMore).toBe(true);
    expect(await refusal(accounts.get(99))).toEqual({ code: 'ACCOUNT_NOT_FOUND', status: 404 });
  });

  it("gives a key in an account the account's plan, and refuses one of its own with 422", async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'business' }, SYSTEM);
    const { key } = await keys.create({ name: 'svc', scopes: ['read'], accountId: acme.id }, SYSTEM);
    expect(key).toMatchObject({ plan: 'business', account: { id: acme.id } });
    expect(
      await refusal(keys.create({ name: 'x', scopes: ['read'], plan: 'pro', accountId: acme.id }, SYSTEM)),
    ).toEqual({
      code: 'API_KEY_PLAN_FROM_ACCOUNT',
      status: 422,
    });
    expect(await refusal(keys.update(key.id, { plan: 'pro' }, SYSTEM))).toMatchObject({ status: 422 });
    expect(await refusal(keys.create({ name: 'x', scopes: ['read'], accountId: 42 }, SYSTEM))).toEqual({
      code: 'ACCOUNT_NOT_FOUND',
      status: 422,
    });
    expect(await refusal(keys.update(key.id, { accountId: 42 }, SYSTEM))).toEqual({
      code: 'ACCOUNT_NOT_FOUND',
      status: 422,
    });
  });

  it('moves a key out of its account: it keeps the plan unless given one, and may be given one then', async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' }, SYSTEM);
    const { key } = await keys.create({ name: 'svc', scopes: ['read'], plan: 'free' }, SYSTEM);
    expect((await keys.update(key.id, { accountId: acme.id }, SYSTEM)).account?.id).toBe(acme.id);
    const out = await keys.update(key.id, { accountId: null }, SYSTEM);
    expect(out).toMatchObject({ plan: 'pro', account: null });
    await keys.update(key.id, { accountId: acme.id }, SYSTEM);
    expect(await keys.update(key.id, { accountId: null, plan: 'free' }, SYSTEM)).toMatchObject({
      plan: 'free',
      account: null,
    });
  });

  it('deletes an account only when no unrevoked key is in it (409 ACCOUNT_HAS_LIVE_KEYS)', async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' }, SYSTEM);
    const { key } = await keys.create({ name: 'svc', scopes: ['read'], accountId: acme.id }, SYSTEM);
    expect(await refusal(accounts.remove(acme.id, SYSTEM))).toEqual({ code: 'ACCOUNT_HAS_LIVE_KEYS', status: 409 });
    await keys.revoke(key.id, SYSTEM);
    await accounts.remove(acme.id, SYSTEM);
    expect(await refusal(accounts.get(acme.id))).toMatchObject({ status: 404 });
    expect(await refusal(accounts.remove(acme.id, SYSTEM))).toEqual({ code: 'ACCOUNT_NOT_FOUND', status: 404 });
  });

  it("reports an account's usage per day: its keys' rows while they were in it, zeros elsewhere", async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' }, SYSTEM);
    await usage.add([
      { keyId: 1, accountId: acme.id, date: '2026-11-20', requests: 5, refused: 1, bans: 0 },
      { keyId: 2, accountId: acme.id, date: '2026-11-20', requests: 7, refused: 0, bans: 1 },
      { keyId: 1, accountId: null, date: '2026-11-21', requests: 100, refused: 0, bans: 0 },
    ]);
    expect(await accounts.daily(acme.id, { from: '2026-11-20', to: '2026-11-21' })).toEqual([
      { date: '2026-11-20', requests: 12, refused: 1, bans: 1 },
      { date: '2026-11-21', requests: 0, refused: 0, bans: 0 },
    ]);
    expect(await refusal(accounts.daily(99, {}))).toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
  });

  it("a plan change reaches this instance's cached keys of the account at once", async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' }, SYSTEM);
    const { secret } = await keys.create({ name: 'svc', scopes: ['read'], accountId: acme.id }, SYSTEM);
    expect((await resolver.resolve(secret))?.account?.id).toBe(acme.id);
    const lookups = store.calls.findActiveByHash;
    await accounts.update(acme.id, { plan: 'business' }, SYSTEM);
    await resolver.resolve(secret);
    expect(store.calls.findActiveByHash).toBe(lookups + 1);
  });

  describe('audit trail', () => {
    const admin = { actor: { type: 'api_key' as const, id: 1, address: '203.0.113.7' }, requestId: 'req-1' };
    const ofAccounts = () => audit.entries.filter((e) => e.target.type === 'account');

    it('records a creation, a change and a deletion once each, by whom, as [before, after]', async () => {
      const acme = await accounts.create({ name: 'Acme', plan: 'pro', externalId: 'cus_1' }, admin);
      await accounts.update(
        acme.id,
        { name: 'Acme Ltd', plan: 'enterprise', limits: { perMinute: 9, perDay: 90 } },
        admin,
      );
      await accounts.remove(acme.id, { actor: { type: 'cli' } });
      const target = { type: 'account', id: String(acme.id) };
      expect(ofAccounts()).toMatchObject([
        {
          ...admin,
          action: 'account.created',
          target,
          changes: { name: [null, 'Acme'], plan: [null, 'pro'], externalId: [null, 'cus_1'] },
        },
        {
          ...admin,
          action: 'account.updated',
          target,
          changes: {
            name: ['Acme', 'Acme Ltd'],
            plan: ['pro', 'enterprise'],
            limits: [null, { perMinute: 9, perDay: 90 }],
          },
        },
        {
          actor: { type: 'cli' },
          action: 'account.deleted',
          target,
          changes: {
            name: ['Acme Ltd', null],
            plan: ['enterprise', null],
            limits: [{ perMinute: 9, perDay: 90 }, null],
            externalId: ['cus_1', null],
          },
        },
      ]);
      expect(ofAccounts()[0].changes).not.toHaveProperty('limits');
      expect(Object.keys(ofAccounts()[1].changes)).toEqual(['name', 'plan', 'limits']);
    });

    it('records nothing for a refused change, nor for one that changes nothing', async () => {
      const acme = await accounts.create({ name: 'Acme', plan: 'pro', externalId: 'cus_1' }, SYSTEM);
      await accounts.create({ name: 'Other', plan: 'free' }, SYSTEM);
      const { key } = await keys.create({ name: 'svc', scopes: ['read'], accountId: acme.id }, SYSTEM);
      const before = audit.entries.length;
      await expect(accounts.update(99, { name: 'x' }, admin)).rejects.toBeInstanceOf(AccountNotFoundError);
      await expect(accounts.update(acme.id + 1, { externalId: 'cus_1' }, admin)).rejects.toBeInstanceOf(
        AccountExternalIdTakenError,
      );
      await expect(accounts.remove(acme.id, admin)).rejects.toBeInstanceOf(AccountHasLiveKeysError);
      await expect(accounts.remove(99, admin)).rejects.toBeInstanceOf(AccountNotFoundError);
      await accounts.update(acme.id, { name: 'Acme', plan: 'pro' }, admin);
      expect(audit.entries.slice(before)).toEqual([]);
      expect(store.records).toHaveLength(1);
      expect(key.account?.id).toBe(acme.id);
    });

    it("shows a key's account in its created and updated entries as accountId", async () => {
      const acme = await accounts.create({ name: 'Acme', plan: 'pro' }, SYSTEM);
      const { key } = await keys.create({ name: 'svc', scopes: ['read'], plan: 'free' }, admin);
      const { key: inside } = await keys.create({ name: 'svc2', scopes: ['read'], accountId: acme.id }, admin);
      await keys.update(key.id, { accountId: acme.id }, admin);
      await keys.update(key.id, { accountId: null }, admin);
      const ofKey = (id: number) =>
        audit.entries.filter((e) => e.target.type === 'api_key' && e.target.id === String(id));
      expect(ofKey(key.id)[0].changes).not.toHaveProperty('accountId');
      expect(ofKey(inside.id)[0].changes).toMatchObject({ accountId: [null, acme.id], plan: [null, 'pro'] });
      expect(
        ofKey(key.id)
          .slice(1)
          .map((e) => e.changes),
      ).toEqual([{ plan: ['free', 'pro'], accountId: [null, acme.id] }, { accountId: [acme.id, null] }]);
    });
  });
});
