import { ApiKeyResolver } from '@petstore/auth';
import { STATUS_BY_KIND } from '@petstore/errors';
import {
  InMemoryAccountRepository,
  InMemoryApiKeyStore,
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

  beforeEach(() => {
    store = new InMemoryApiKeyStore();
    const repository = new InMemoryAccountRepository((id) => store.hasLiveKeys(id));
    resolver = new ApiKeyResolver(store);
    usage = new InMemoryKeyUsageRepository();
    accounts = new AccountsService(repository, usage, resolver);
    const { uow, trail } = inMemoryAuditTrail();
    keys = new ApiKeysService(store, { in: () => store }, uow, trail, resolver, repository, loadAppConfig({}));
  });

  it('creates, reads, changes and lists accounts; externalId is unique (409)', async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro', externalId: 'cus_1' });
    expect(acme).toMatchObject({ id: 1, name: 'Acme', plan: 'pro', limits: null, externalId: 'cus_1' });
    expect(await refusal(accounts.create({ name: 'Other', plan: 'free', externalId: 'cus_1' }))).toEqual({
      code: 'ACCOUNT_EXTERNAL_ID_TAKEN',
      status: 409,
    });
    const other = await accounts.create({ name: 'Other', plan: 'free' });
    expect(await refusal(accounts.update(other.id, { externalId: 'cus_1' }))).toMatchObject({ status: 409 });
    expect(await accounts.update(acme.id, { externalId: null, name: 'Acme Ltd' })).toMatchObject({
      name: 'Acme Ltd',
      externalId: null,
      plan: 'pro',
    });
    expect((await accounts.list({ limit: 1, afterId: null })).hasMore).toBe(true);
    expect(await refusal(accounts.get(99))).toEqual({ code: 'ACCOUNT_NOT_FOUND', status: 404 });
  });

  it("gives a key in an account the account's plan, and refuses one of its own with 422", async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'business' });
    const { key } = await keys.create({ name: 'svc', scopes: ['read'], accountId: acme.id });
    expect(key).toMatchObject({ plan: 'business', account: { id: acme.id } });
    expect(await refusal(keys.create({ name: 'x', scopes: ['read'], plan: 'pro', accountId: acme.id }))).toEqual({
      code: 'API_KEY_PLAN_FROM_ACCOUNT',
      status: 422,
    });
    expect(await refusal(keys.update(key.id, { plan: 'pro' }))).toMatchObject({ status: 422 });
    expect(await refusal(keys.create({ name: 'x', scopes: ['read'], accountId: 42 }))).toEqual({
      code: 'ACCOUNT_NOT_FOUND',
      status: 422,
    });
    expect(await refusal(keys.update(key.id, { accountId: 42 }))).toEqual({ code: 'ACCOUNT_NOT_FOUND', status: 422 });
  });

  it('moves a key out of its account: it keeps the plan unless given one, and may be given one then', async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' });
    const { key } = await keys.create({ name: 'svc', scopes: ['read'], plan: 'free' });
    expect((await keys.update(key.id, { accountId: acme.id })).account?.id).toBe(acme.id);
    const out = await keys.update(key.id, { accountId: null });
    expect(out).toMatchObject({ plan: 'pro', account: null });
    await keys.update(key.id, { accountId: acme.id });
    expect(await keys.update(key.id, { accountId: null, plan: 'free' })).toMatchObject({ plan: 'free', account: null });
  });

  it('deletes an account only when no unrevoked key is in it (409 ACCOUNT_HAS_LIVE_KEYS)', async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' });
    const { key } = await keys.create({ name: 'svc', scopes: ['read'], accountId: acme.id });
    expect(await refusal(accounts.remove(acme.id))).toEqual({ code: 'ACCOUNT_HAS_LIVE_KEYS', status: 409 });
    await keys.revoke(key.id);
    await accounts.remove(acme.id);
    expect(await refusal(accounts.get(acme.id))).toMatchObject({ status: 404 });
    expect(await refusal(accounts.remove(acme.id))).toEqual({ code: 'ACCOUNT_NOT_FOUND', status: 404 });
  });

  it("reports an account's usage per day: its keys' rows while they were in it, zeros elsewhere", async () => {
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' });
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
    const acme = await accounts.create({ name: 'Acme', plan: 'pro' });
    const { secret } = await keys.create({ name: 'svc', scopes: ['read'], accountId: acme.id });
    expect((await resolver.resolve(secret))?.account?.id).toBe(acme.id);
    const lookups = store.calls.findActiveByHash;
    await accounts.update(acme.id, { plan: 'business' });
    await resolver.resolve(secret);
    expect(store.calls.findActiveByHash).toBe(lookups + 1);
  });
});
