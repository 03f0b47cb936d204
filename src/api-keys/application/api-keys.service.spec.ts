import { SYSTEM } from '../../audit/index.js';
import { createHash } from 'node:crypto';
import { ApiKeyResolver, type Scope } from '@petstore/auth';
import { STATUS_BY_KIND } from '@petstore/errors';
import {
  InMemoryAccountRepository,
  InMemoryApiKeyStore,
  type InMemoryAuditLogRepository,
  inMemoryAuditTrail,
} from '../../../test/fakes/index.js';
import { loadAppConfig } from '../../config/app.config.js';
import { ApiKeyNotFoundError, KeyLimitsMismatchError, KeyLimitsOutOfOrderError } from '../domain/api-key.errors.js';
import { ApiKeysService, type NewApiKey } from './api-keys.service.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const ENTERPRISE_LIMITS = { perMinute: 5_000, perDay: 1_000_000 };

describe('ApiKeysService', () => {
  let store: InMemoryApiKeyStore;
  let resolver: ApiKeyResolver;
  let service: ApiKeysService;
  let clock: number;
  let audit: InMemoryAuditLogRepository;
  let accounts: InMemoryAccountRepository;
  const serviceWith = (config = loadAppConfig({})) => {
    const { log, uow, trail } = inMemoryAuditTrail(undefined, { now: () => new Date(clock) });
    audit = log;
    return new ApiKeysService(store, { in: () => store }, uow, trail, resolver, accounts, config);
  };

  beforeEach(() => {
    clock = Date.parse('2026-11-21T10:00:00Z');
    store = new InMemoryApiKeyStore({ now: () => new Date(clock) });
    resolver = new ApiKeyResolver(store, () => clock);
    accounts = new InMemoryAccountRepository((id) => store.hasLiveKeys(id));
    service = serviceWith();
  });

  const freeReader: NewApiKey = { name: 'mobile app', plan: 'free', scopes: ['read'] };

  describe('create', () => {
    it('issues a psk_ secret with at least 128 bits of entropy, shown only in the result', async () => {
      const { key, secret } = await service.create(freeReader, SYSTEM);
      expect(secret).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
      expect(key).toMatchObject({ name: 'mobile app', plan: 'free', scopes: ['read'], limits: null, revokedAt: null });
      expect(key.id).toBeGreaterThan(0);
      expect(key).not.toHaveProperty('secret');
      expect(JSON.stringify(key)).not.toContain(secret);
    });

    it('gives the store only the SHA-256 hash and a short readable prefix of the secret', async () => {
      const { key, secret } = await service.create(freeReader, SYSTEM);
      expect(store.records).toHaveLength(1);
      const [record] = store.records;
      expect(record.hash).toBe(sha256(secret));
      expect(record.prefix).toBe(secret.slice(0, record.prefix.length));
      expect(record.prefix.startsWith('psk_')).toBe(true);
      expect(record.prefix.length).toBeLessThan(secret.length / 2);
      expect(JSON.stringify(record)).not.toContain(secret);
      expect(store.hashOf(key.id)).toBe(sha256(secret));
      expect(key.prefix).toBe(record.prefix);
    });

    it('issues a different secret every time', async () => {
      const secrets = new Set<string>();
      for (let i = 0; i < 20; i++) secrets.add((await service.create(freeReader, SYSTEM)).secret);
      expect(secrets.size).toBe(20);
    });

    it('stores each scope once', async () => {
      const { key } = await service.create({ name: 'k', plan: 'pro', scopes: ['read', 'write', 'read'] }, SYSTEM);
      expect(key.scopes).toEqual(['read', 'write']);
    });

    it.each(['free', 'pro', 'business'] as const)(
      'refuses limits on the %s plan (400 VALIDATION_FAILED)',
      async (plan) => {
        const error = await service
          .create({ ...freeReader, plan, limits: ENTERPRISE_LIMITS }, SYSTEM)
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(KeyLimitsMismatchError);
        expect(error).toMatchObject({ code: 'VALIDATION_FAILED', kind: 'validation' });
        expect(STATUS_BY_KIND.validation).toBe(400);
        expect((error as Error).message).toContain(plan);
        expect(store.size).toBe(0);
      },
    );

    it('requires limits for the enterprise plan', async () => {
      for (const limits of [undefined, null]) {
        await expect(service.create({ ...freeReader, plan: 'enterprise', limits }, SYSTEM)).rejects.toBeInstanceOf(
          KeyLimitsMismatchError,
        );
      }
      expect(store.size).toBe(0);
    });

    it('refuses a per-day limit below the per-minute one, as the plan table does', async () => {
      const limits = { perMinute: 500, perDay: 100 };
      const error = await service
        .create({ ...freeReader, plan: 'enterprise', limits }, SYSTEM)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeyLimitsOutOfOrderError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', kind: 'validation' });
      expect(store.size).toBe(0);
      const { key } = await service.create({ ...freeReader, plan: 'enterprise', limits: ENTERPRISE_LIMITS }, SYSTEM);
      await expect(service.update(key.id, { limits }, SYSTEM)).rejects.toBeInstanceOf(KeyLimitsOutOfOrderError);
      expect((await service.get(key.id)).limits).toEqual(ENTERPRISE_LIMITS);
      const equal = { perMinute: 100, perDay: 100 };
      expect((await service.update(key.id, { limits: equal }, SYSTEM)).limits).toEqual(equal);
    });

    it('keeps the limits of an enterprise key', async () => {
      const { key } = await service.create({ ...freeReader, plan: 'enterprise', limits: ENTERPRISE_LIMITS }, SYSTEM);
      expect(key.limits).toEqual(ENTERPRISE_LIMITS);
    });
  });

  describe('list and get', () => {
    it('pages keys by ascending id, revoked ones included', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await service.create({ ...freeReader, name: `k${i}` }, SYSTEM)).key.id);
      await service.revoke(ids[1], SYSTEM);
      const first = await service.list({ limit: 3, afterId: null });
      expect(first.items.map((k) => k.id)).toEqual(ids.slice(0, 3));
      expect(first.items[1].revokedAt).toEqual(new Date(clock));
      expect(first.hasMore).toBe(true);
      const second = await service.list({ limit: 3, afterId: ids[2] });
      expect(second.items.map((k) => k.id)).toEqual(ids.slice(3));
      expect(second.hasMore).toBe(false);
    });

    it('get throws ApiKeyNotFoundError (404 API_KEY_NOT_FOUND) for an unknown id', async () => {
      const error = await service.get(7).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiKeyNotFoundError);
      expect(error).toMatchObject({ code: 'API_KEY_NOT_FOUND', kind: 'not_found' });
    });
  });

  describe('update', () => {
    it('changes the plan and keeps the scopes when they are absent', async () => {
      const { key } = await service.create({ name: 'k', plan: 'free', scopes: ['read', 'write'] }, SYSTEM);
      expect(await service.update(key.id, { plan: 'pro' }, SYSTEM)).toMatchObject({
        plan: 'pro',
        scopes: ['read', 'write'],
        limits: null,
      });
    });

    it('changes the scopes and keeps the plan when it is absent', async () => {
      const { key } = await service.create({ name: 'k', plan: 'business', scopes: ['read'] }, SYSTEM);
      expect(await service.update(key.id, { scopes: ['read', 'admin'] }, SYSTEM)).toMatchObject({
        plan: 'business',
        scopes: ['read', 'admin'],
      });
    });

    it('stores each scope once, as create does', async () => {
      const { key } = await service.create({ name: 'k', plan: 'pro', scopes: ['read'] }, SYSTEM);
      const scopes: Scope[] = ['write', 'write', 'read'];
      expect((await service.update(key.id, { scopes }, SYSTEM)).scopes).toEqual(['write', 'read']);
    });

    it('refuses limits for a non-enterprise plan', async () => {
      const { key } = await service.create(freeReader, SYSTEM);
      await expect(service.update(key.id, { limits: ENTERPRISE_LIMITS }, SYSTEM)).rejects.toBeInstanceOf(
        KeyLimitsMismatchError,
      );
      await expect(service.update(key.id, { plan: 'pro', limits: ENTERPRISE_LIMITS }, SYSTEM)).rejects.toBeInstanceOf(
        KeyLimitsMismatchError,
      );
      expect(await service.get(key.id)).toMatchObject({ plan: 'free', limits: null });
    });

    it('requires limits when moving to the enterprise plan', async () => {
      const { key } = await service.create(freeReader, SYSTEM);
      await expect(service.update(key.id, { plan: 'enterprise' }, SYSTEM)).rejects.toBeInstanceOf(
        KeyLimitsMismatchError,
      );
      expect(await service.update(key.id, { plan: 'enterprise', limits: ENTERPRISE_LIMITS }, SYSTEM)).toMatchObject({
        plan: 'enterprise',
        limits: ENTERPRISE_LIMITS,
      });
    });

    it('keeps the limits of an enterprise key whose other fields change', async () => {
      const { key } = await service.create({ ...freeReader, plan: 'enterprise', limits: ENTERPRISE_LIMITS }, SYSTEM);
      expect(await service.update(key.id, { scopes: ['read', 'write'] }, SYSTEM)).toMatchObject({
        plan: 'enterprise',
        limits: ENTERPRISE_LIMITS,
      });
    });

    it('changes the limits of an enterprise key', async () => {
      const { key } = await service.create({ ...freeReader, plan: 'enterprise', limits: ENTERPRISE_LIMITS }, SYSTEM);
      const limits = { perMinute: 1, perDay: 2 };
      expect((await service.update(key.id, { limits }, SYSTEM)).limits).toEqual(limits);
    });

    it('refuses to remove the limits of a key that stays enterprise', async () => {
      const { key } = await service.create({ ...freeReader, plan: 'enterprise', limits: ENTERPRISE_LIMITS }, SYSTEM);
      await expect(service.update(key.id, { limits: null }, SYSTEM)).rejects.toBeInstanceOf(KeyLimitsMismatchError);
      expect((await service.get(key.id)).limits).toEqual(ENTERPRISE_LIMITS);
    });

    it('drops the limits when leaving the enterprise plan', async () => {
      const { key } = await service.create({ ...freeReader, plan: 'enterprise', limits: ENTERPRISE_LIMITS }, SYSTEM);
      expect(await service.update(key.id, { plan: 'pro' }, SYSTEM)).toMatchObject({ plan: 'pro', limits: null });
      expect((await service.get(key.id)).limits).toBeNull();
    });

    it('throws ApiKeyNotFoundError for an unknown id', async () => {
      await expect(service.update(7, { plan: 'pro' }, SYSTEM)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    });

    it('is seen by the resolver at once, though the key was cached', async () => {
      const { key, secret } = await service.create(freeReader, SYSTEM);
      expect((await resolver.resolve(secret))?.scopes).toEqual(['read']);
      await service.update(key.id, { plan: 'business', scopes: ['read', 'write'] }, SYSTEM);
      expect(await resolver.resolve(secret)).toMatchObject({ plan: 'business', scopes: ['read', 'write'] });
    });
  });

  describe('revoke', () => {
    it('makes the key unusable at once, though it was cached', async () => {
      const { key, secret } = await service.create(freeReader, SYSTEM);
      expect(await resolver.resolve(secret)).toEqual(key);
      await service.revoke(key.id, SYSTEM);
      expect(await resolver.resolve(secret)).toBeNull();
      expect((await service.get(key.id)).revokedAt).toEqual(new Date(clock));
    });

    it('leaves other keys usable', async () => {
      const a = await service.create(freeReader, SYSTEM);
      const b = await service.create(freeReader, SYSTEM);
      await resolver.resolve(b.secret);
      await service.revoke(a.key.id, SYSTEM);
      expect(await resolver.resolve(b.secret)).toEqual(b.key);
    });

    it('throws ApiKeyNotFoundError for an unknown id', async () => {
      const error = await service.revoke(7, SYSTEM).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiKeyNotFoundError);
      expect(error).toMatchObject({ code: 'API_KEY_NOT_FOUND', message: 'API key 7 does not exist' });
    });
  });

  describe('registerFirstAdminKey', () => {
    const bootstrap = 'a-bootstrap-admin-key-of-at-least-32-chars';

    it('registers the secret as an enterprise admin key with the configured limits when no key exists', async () => {
      const key = await service.registerFirstAdminKey(bootstrap);
      expect(key).toMatchObject({
        plan: 'enterprise',
        scopes: ['read', 'write', 'admin'],
        limits: { perMinute: 100_000, perDay: 10_000_000 },
        revokedAt: null,
      });
      expect(store.records[0].hash).toBe(sha256(bootstrap));
      expect(JSON.stringify(store.records[0])).not.toContain(bootstrap);
      expect(await resolver.resolve(bootstrap)).toEqual(key);
    });

    it('uses the limits from the configuration', async () => {
      const config = loadAppConfig({ BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE: '7', BOOTSTRAP_ADMIN_LIMIT_PER_DAY: '70' });
      const custom = serviceWith(config);
      expect((await custom.registerFirstAdminKey(bootstrap))?.limits).toEqual({ perMinute: 7, perDay: 70 });
    });

    it('does nothing when a key already exists', async () => {
      await service.create(freeReader, SYSTEM);
      expect(await service.registerFirstAdminKey(bootstrap)).toBeNull();
      expect(store.size).toBe(1);
      expect(await resolver.resolve(bootstrap)).toBeNull();
    });

    it('does nothing when the only key was revoked', async () => {
      const { key } = await service.create(freeReader, SYSTEM);
      await service.revoke(key.id, SYSTEM);
      expect(await service.registerFirstAdminKey(bootstrap)).toBeNull();
    });

    it('registers only once when called concurrently (the store decides atomically)', async () => {
      const results = await Promise.all([
        service.registerFirstAdminKey(bootstrap),
        service.registerFirstAdminKey('another-bootstrap-admin-key-32-chars-x'),
      ]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect(store.size).toBe(1);
    });

    it('makes the key usable at once after a cached miss', async () => {
      expect(await resolver.resolve(bootstrap)).toBeNull();
      await service.registerFirstAdminKey(bootstrap);
      expect(await resolver.resolve(bootstrap)).not.toBeNull();
    });
  });

  describe('audit trail', () => {
    const admin = { actor: { type: 'api_key' as const, id: 1, address: '203.0.113.7' }, requestId: 'req-1' };

    it('records each change once, by whom, with the fields that changed as [before, after]', async () => {
      const { key } = await service.create(freeReader, admin);
      await service.update(key.id, { plan: 'pro', scopes: ['read', 'write'] }, admin);
      const rolled = await service.roll(key.id, 60, { actor: { type: 'cli' } });
      await service.endOverlap(key.id, admin);
      await service.revoke(key.id, admin);
      expect(audit.entries.map((e) => e.action)).toEqual([
        'api_key.created',
        'api_key.updated',
        'api_key.rolled',
        'api_key.overlap_ended',
        'api_key.revoked',
      ]);
      const [created, updated, roll, ended, revoked] = audit.entries;
      expect(created).toMatchObject({ ...admin, target: { type: 'api_key', id: String(key.id) } });
      expect(created.changes).toMatchObject({
        name: [null, 'mobile app'],
        plan: [null, 'free'],
        scopes: [null, ['read']],
      });
      expect(updated.changes).toEqual({ plan: ['free', 'pro'], scopes: [['read'], ['read', 'write']] });
      expect(roll).toMatchObject({ actor: { type: 'cli' } });
      expect(roll.changes).toEqual({
        prefix: [key.prefix, rolled.key.prefix],
        previousKeyExpiresAt: [null, rolled.previousKeyExpiresAt.toISOString()],
      });
      expect(ended.changes).toEqual({
        previousKeyExpiresAt: [rolled.previousKeyExpiresAt.toISOString(), expect.any(String)],
      });
      expect(revoked.changes).toEqual({ revokedAt: [null, new Date(clock).toISOString()] });
      const everything = JSON.stringify(audit.entries);
      expect(everything).not.toContain(rolled.secret);
      for (const record of store.records) expect(everything).not.toContain(record.hash);
    });

    it('records nothing for a refused change, nor for one that changes nothing', async () => {
      const { key } = await service.create(freeReader, SYSTEM);
      const before = audit.entries.length;
      await expect(service.update(key.id, { limits: ENTERPRISE_LIMITS }, admin)).rejects.toBeInstanceOf(
        KeyLimitsMismatchError,
      );
      await expect(service.update(99, { plan: 'pro' }, admin)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
      await service.update(key.id, { plan: 'free' }, admin);
      await service.revoke(key.id, admin);
      await service.revoke(key.id, admin);
      expect(audit.entries.slice(before).map((e) => e.action)).toEqual(['api_key.revoked']);
    });

    it('records a key created without a named actor as made by the service', async () => {
      await service.create(freeReader, SYSTEM);
      expect(audit.entries[0].actor).toEqual({ type: 'system' });
    });
  });
});
