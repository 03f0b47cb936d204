import { SYSTEM } from '../../audit/index.js';
import { ApiKeyResolver, isExpired } from '@petstore/auth';
import { InMemoryAccountRepository, InMemoryApiKeyStore, inMemoryAuditTrail } from '../../../test/fakes/index.js';
import { loadAppConfig } from '../../config/app.config.js';
import type { Clock } from '../../shared/clock.js';
import { ApiKeyNotFoundError, KeyLifecycleError } from '../domain/api-key.errors.js';
import { ApiKeysService } from './api-keys.service.js';

describe('ApiKeysService: expiry, address rules and rolls', () => {
  let store: InMemoryApiKeyStore;
  let resolver: ApiKeyResolver;
  let service: ApiKeysService;
  let now: number;

  beforeEach(() => {
    now = Date.parse('2026-11-28T10:00:00Z');
    const clock: Clock = { now: () => new Date(now) };
    store = new InMemoryApiKeyStore({ now: () => new Date(now) });
    resolver = new ApiKeyResolver(store, () => now);
    const { uow, trail } = inMemoryAuditTrail(undefined, clock);
    const accounts = new InMemoryAccountRepository();
    service = new ApiKeysService(
      store,
      { in: () => store },
      uow,
      trail,
      resolver,
      accounts,
      loadAppConfig({}),
      undefined,
      clock,
    );
  });

  const issue = (extra: { expiresAt?: Date | null; allowedAddresses?: string[] | null } = {}) =>
    service.create({ name: 'svc', plan: 'free', scopes: ['read'], ...extra }, SYSTEM);

  describe('expiry', () => {
    it('stores a future expiry, after which the key counts as expired', async () => {
      const expiresAt = new Date(now + 60_000);
      const { key, secret } = await issue({ expiresAt });
      expect(key.expiresAt).toEqual(expiresAt);
      const resolved = (await resolver.resolve(secret))!;
      expect(isExpired(resolved, now + 59_999)).toBe(false);
      expect(isExpired(resolved, now + 60_000)).toBe(true);
    });

    it('refuses an expiry that is not in the future, storing nothing', async () => {
      await expect(issue({ expiresAt: new Date(now) })).rejects.toBeInstanceOf(KeyLifecycleError);
      expect(store.size).toBe(0);
      const { key } = await issue();
      await expect(service.update(key.id, { expiresAt: new Date(now - 1) }, SYSTEM)).rejects.toThrow(
        'expiresAt must be in the future',
      );
      expect(store.calls.update).toBe(0);
    });

    it('is removed by null, and a change applies to the cached key at once on this instance', async () => {
      const { key, secret } = await issue({ expiresAt: new Date(now + 1_000) });
      await resolver.resolve(secret);
      await service.update(key.id, { expiresAt: null }, SYSTEM);
      expect((await resolver.resolve(secret))!.expiresAt).toBeNull();
    });
  });

  describe('address rules', () => {
    it('are validated, stored without duplicates, and removed by null', async () => {
      const { key } = await issue({ allowedAddresses: ['10.0.0.0/8', '10.0.0.0/8', '2001:db8::1'] });
      expect(key.allowedAddresses).toEqual(['10.0.0.0/8', '2001:db8::1']);
      await expect(service.update(key.id, { allowedAddresses: ['10.0.0.300'] }, SYSTEM)).rejects.toBeInstanceOf(
        KeyLifecycleError,
      );
      expect((await service.update(key.id, { allowedAddresses: null }, SYSTEM)).allowedAddresses).toBeNull();
    });
  });

  describe('roll', () => {
    it('gives the same key a new secret; the previous one works until the overlap ends', async () => {
      const { key, secret: first } = await issue();
      await resolver.resolve(first); // cached before the roll: the roll must not leave it as the current secret
      const rolled = await service.roll(key.id, 2, SYSTEM);
      expect(rolled.secret).not.toBe(first);
      expect(rolled.previousKeyExpiresAt).toEqual(new Date(now + 2_000));

      const current = (await resolver.resolve(rolled.secret))!;
      expect(current).toMatchObject({ id: key.id, createdAt: key.createdAt });
      expect(current.previousSecret).toBeUndefined();
      expect(isExpired(current, now + 10_000_000)).toBe(false);

      const previous = (await resolver.resolve(first))!;
      expect(previous).toMatchObject({ id: key.id, previousSecret: true });
      expect(isExpired(previous, now + 1_999)).toBe(false);
      expect(isExpired(previous, now + 2_000)).toBe(true);
    });

    it('defaults to a day of overlap and allows 0', async () => {
      const { key } = await issue();
      expect((await service.roll(key.id, undefined, SYSTEM)).previousKeyExpiresAt).toEqual(new Date(now + 86_400_000));
      expect((await service.roll(key.id, 0, SYSTEM)).previousKeyExpiresAt).toEqual(new Date(now));
    });

    it('rolling again during an overlap ends the older secret at once', async () => {
      const { key, secret: first } = await issue();
      const second = await service.roll(key.id, 3_600, SYSTEM);
      await service.roll(key.id, 3_600, SYSTEM);
      expect(await resolver.resolve(first)).toBeNull();
      expect((await resolver.resolve(second.secret))!.previousSecret).toBe(true);
    });

    it('ends the overlap on demand', async () => {
      const { key, secret: first } = await issue();
      await service.roll(key.id, 3_600, SYSTEM);
      await resolver.resolve(first);
      now += 1_000;
      const ended = await service.endOverlap(key.id, SYSTEM);
      expect(ended.previousKeyExpiresAt).toEqual(new Date(now));
      expect(isExpired((await resolver.resolve(first))!, now)).toBe(true);
    });

    it('refuses an overlap beyond 30 days, and an unknown or revoked key, changing nothing', async () => {
      const { key } = await issue();
      await expect(service.roll(key.id, 30 * 86_400 + 1, SYSTEM)).rejects.toBeInstanceOf(KeyLifecycleError);
      expect(store.calls.roll).toBe(0);
      await expect(service.roll(99, undefined, SYSTEM)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
      await service.revoke(key.id, SYSTEM);
      await expect(service.roll(key.id, undefined, SYSTEM)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
      await expect(service.endOverlap(99, SYSTEM)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    });
  });
});
