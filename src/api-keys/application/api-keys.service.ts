import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import {
  type ApiKey,
  type ApiKeyFilter,
  ApiKeyStore,
  ApiKeyResolver,
  generateApiKeySecret,
  hashApiKeySecret,
  type KeyLimits,
  type NewApiKeyRecord,
  type Scope,
  visiblePrefix,
} from '@petstore/auth';
import { type RateLimitDecision, RateLimiter } from '@petstore/rate-limit';
import { type AuditContext, AuditTrail, changesBetween, isEmptyChange, SYSTEM } from '../../audit/index.js';
import { appConfig } from '../../config/app.config.js';
import { keyClient, keyCounterId } from '../../rate-limits/api-clients.js';
import type { PlanName } from '../../rate-limits/plan.js';
import { Clock, systemClock } from '../../shared/clock.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import { type Transaction, UnitOfWork } from '../../shared/unit-of-work/unit-of-work.js';
import { type Account, keyQuota } from '../domain/account.js';
import { ReferencedAccountNotFoundError } from '../domain/account.errors.js';
import { AccountRepository } from '../domain/account.repository.js';
import { ApiKeyNotFoundError } from '../domain/api-key.errors.js';
import { addressRules, assertExpiryInFuture, previousKeyExpiry } from '../domain/api-key-lifecycle.js';
import { TransactionalApiKeyStore } from '../domain/transactional-api-key.store.js';

/** A key as its audit entries see it: its account as the account's id. */
type AuditedKey = ApiKey & { readonly accountId: number | null };

/** The fields of a key that its audit entries show: never its hashes (nor, of course, its secret). */
const AUDITED_FIELDS = [
  'name',
  'prefix',
  'plan',
  'scopes',
  'limits',
  'accountId',
  'expiresAt',
  'allowedAddresses',
  'revokedAt',
  'previousKeyExpiresAt',
] as const satisfies readonly (keyof AuditedKey)[];

function audited(key: ApiKey): AuditedKey {
  return { ...key, accountId: key.account?.id ?? null };
}

function keyTarget(id: number): { type: string; id: string } {
  return { type: 'api_key', id: String(id) };
}

export interface NewApiKey {
  readonly name: string;
  /** Required unless the key joins an account (then refused: it has the account's). */
  readonly plan?: PlanName;
  readonly scopes: readonly Scope[];
  readonly limits?: KeyLimits | null;
  readonly expiresAt?: Date | null;
  readonly allowedAddresses?: readonly string[] | null;
  /** The account the key belongs to (its plan, limits and windows are then the account's). */
  readonly accountId?: number | null;
}

export interface ApiKeyUpdate {
  /** Refused for a key that is (or goes) in an account. */
  readonly plan?: PlanName;
  /** A number moves the key into that account; null takes it out (keeping the account's plan unless given one). */
  readonly accountId?: number | null;
  readonly scopes?: readonly Scope[];
  readonly limits?: KeyLimits | null;
  /** null removes the expiry. */
  readonly expiresAt?: Date | null;
  /** null removes the address rules. */
  readonly allowedAddresses?: readonly string[] | null;
}

/** A rolled key: its new secret, shown once, and when the previous one stops working. */
export interface RolledApiKey {
  readonly key: ApiKey;
  readonly secret: string;
  readonly previousKeyExpiresAt: Date;
}

/** A newly issued key: the secret is shown this once and never stored. */
export interface IssuedApiKey {
  readonly key: ApiKey;
  readonly secret: string;
}

/**
 * Use cases for API keys: issue, list, change, revoke, and the first-start admin key.
 * Every change is recorded in the audit trail (`by`: who makes it; default the
 * service itself), in the transaction that makes it.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly stores: TransactionalApiKeyStore,
    private readonly uow: UnitOfWork,
    private readonly audit: AuditTrail,
    private readonly resolver: ApiKeyResolver,
    private readonly accounts: AccountRepository,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    /** Absent where no limiter runs (the keys CLI). */
    @Optional() private readonly limiter?: RateLimiter,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  async create(input: NewApiKey, by: AuditContext): Promise<IssuedApiKey> {
    const account = await this.accountNamed(input.accountId);
    const { plan, limits } = keyQuota({ plan: input.plan, limits: input.limits }, account, null);
    assertExpiryInFuture(input.expiresAt, this.clock.now());
    const allowedAddresses = addressRules(input.allowedAddresses) ?? null;
    const secret = generateApiKeySecret();
    const record = {
      ...this.record(input.name, secret, plan, input.scopes, limits),
      expiresAt: input.expiresAt ?? null,
      allowedAddresses,
      accountId: account?.id ?? null,
    };
    const key = await this.uow.run(async (tx) => {
      const created = await this.stores.in(tx).create(record);
      await this.recordCreated(tx, by, created);
      return created;
    });
    this.resolver.invalidateHash(record.hash);
    return { key, secret };
  }

  /** Keys by id, every one or an account's (`filter.accountId`). */
  async list({ limit, afterId }: PageRequest, filter: ApiKeyFilter = {}): Promise<Page<ApiKey>> {
    return toPage(await this.store.list(afterId, limit + 1, filter), limit);
  }

  async get(id: number): Promise<ApiKey> {
    const key = await this.store.findById(id);
    if (!key) throw new ApiKeyNotFoundError(id);
    return key;
  }

  async update(id: number, changes: ApiKeyUpdate, by: AuditContext): Promise<ApiKey> {
    const updated = await this.uow.run(async (tx) => {
      const store = this.stores.in(tx);
      const current = await store.findById(id);
      if (!current) throw new ApiKeyNotFoundError(id);
      // The account the key is in after the change: the one named, else the one it is in.
      const account =
        changes.accountId !== undefined
          ? await this.accountNamed(changes.accountId)
          : current.account
            ? await this.accounts.findById(current.account.id)
            : null;
      // Leaving the enterprise plan drops its per-key limits unless new ones are given; a key that leaves an
      // account keeps the account's plan and limits (current.plan and .limits show them) unless given others.
      const { plan, limits } = keyQuota({ plan: changes.plan, limits: changes.limits }, account, current);
      assertExpiryInFuture(changes.expiresAt, this.clock.now());
      const allowedAddresses = addressRules(changes.allowedAddresses);
      const scopes = changes.scopes && [...new Set(changes.scopes)];
      const after = await store.update(id, {
        plan,
        scopes,
        limits,
        expiresAt: changes.expiresAt,
        allowedAddresses,
        accountId: changes.accountId === undefined ? undefined : (account?.id ?? null),
      });
      if (!after) throw new ApiKeyNotFoundError(id);
      await this.recordChange(tx, by, 'api_key.updated', current, after);
      return after;
    });
    this.resolver.invalidate(id);
    return updated;
  }

  async revoke(id: number, by: AuditContext): Promise<void> {
    await this.uow.run(async (tx) => {
      const store = this.stores.in(tx);
      const current = await store.findById(id);
      const revoked = current && (await store.revoke(id));
      if (!current || !revoked) throw new ApiKeyNotFoundError(id);
      await this.recordChange(tx, by, 'api_key.revoked', current, revoked);
    });
    this.resolver.invalidate(id);
  }

  /**
   * Gives the key a new secret (same record: id, plan, scopes, limits, usage and
   * windows); the current one keeps working for `overlapSeconds` (default a day; 0:
   * not at all), and a previous one still in its overlap stops at once. This instance
   * forgets the key's cached secrets now; others within the key cache's TTL.
   */
  async roll(id: number, overlapSeconds: number | undefined, by: AuditContext): Promise<RolledApiKey> {
    const previousKeyExpiresAt = previousKeyExpiry(this.clock.now(), overlapSeconds);
    const secret = generateApiKeySecret();
    const hash = hashApiKeySecret(secret);
    const key = await this.uow.run(async (tx) => {
      const store = this.stores.in(tx);
      const current = await store.findById(id);
      const rolled =
        current &&
        (await store.roll(id, { prefix: visiblePrefix(secret), hash, previousExpiresAt: previousKeyExpiresAt }));
      if (!current || !rolled) throw new ApiKeyNotFoundError(id);
      await this.recordChange(tx, by, 'api_key.rolled', current, rolled);
      return rolled;
    });
    this.resolver.invalidate(id);
    this.resolver.invalidateHash(hash);
    return { key, secret, previousKeyExpiresAt };
  }

  /** Ends a roll's overlap now: the previous secret answers 401 `API_KEY_EXPIRED` from here on. */
  async endOverlap(id: number, by: AuditContext): Promise<ApiKey> {
    const key = await this.uow.run(async (tx) => {
      const store = this.stores.in(tx);
      const current = await store.findById(id);
      const ended = current && (await store.endOverlap(id, this.clock.now()));
      if (!current || !ended) throw new ApiKeyNotFoundError(id);
      await this.recordChange(tx, by, 'api_key.overlap_ended', current, ended);
      return ended;
    });
    this.resolver.invalidate(id);
    return key;
  }

  /** The key's live windows and ban, read without counting a request against it. */
  async windows(id: number): Promise<{ readonly key: ApiKey; readonly decision: RateLimitDecision }> {
    if (!this.limiter) throw new Error('windows() needs the rate limiter, which only the serving application has');
    const key = await this.get(id);
    return { key, decision: await this.limiter.check(keyClient(key), false) };
  }

  /**
   * Lifts the key's rate-limit ban (revoked keys included: harmless, and the id exists),
   * recorded once lifted, with when the ban would have ended (none: it was not banned).
   */
  async unban(id: number, by: AuditContext): Promise<void> {
    const key = await this.get(id);
    let bannedUntil: Date | null = null;
    if (this.limiter) {
      const decision = await this.limiter.check(keyClient(key), false);
      if (decision.outcome === 'banned') bannedUntil = new Date(decision.binding.resetAt);
      await this.limiter.unban(keyCounterId(key));
    }
    await this.audit.recordApplied({
      ...by,
      action: 'api_key.unbanned',
      target: keyTarget(id),
      changes: changesBetween({ bannedUntil }, { bannedUntil: null }, ['bannedUntil']),
    });
  }

  /**
   * Registers the first admin key while no key exists at all (first start):
   * an enterprise key with every scope, audited as made by the system. Null when
   * keys already exist.
   */
  async registerFirstAdminKey(secret: string): Promise<ApiKey | null> {
    const record = this.record(
      'bootstrap admin',
      secret,
      'enterprise',
      ['read', 'write', 'admin'],
      this.config.bootstrapAdminLimits,
    );
    const created = await this.uow.run(async (tx) => {
      const key = await this.stores.in(tx).createIfNoneExist(record);
      if (key) await this.recordCreated(tx, SYSTEM, key);
      return key;
    });
    if (created) this.resolver.invalidateHash(record.hash);
    return created;
  }

  /** The account a body names (422 `ACCOUNT_NOT_FOUND` when it does not exist); null or absent: none. */
  private async accountNamed(accountId: number | null | undefined): Promise<Account | null> {
    if (accountId === undefined || accountId === null) return null;
    const account = await this.accounts.findById(accountId);
    if (!account) throw new ReferencedAccountNotFoundError(accountId);
    return account;
  }

  private recordCreated(tx: Transaction, by: AuditContext, key: ApiKey): Promise<void> {
    return this.audit.record(tx, {
      ...by,
      action: 'api_key.created',
      target: keyTarget(key.id),
      changes: changesBetween(null, audited(key), AUDITED_FIELDS),
    });
  }

  /** Records the change from `before` to `after` of a key, unless nothing shown changed. */
  private async recordChange(
    tx: Transaction,
    by: AuditContext,
    action: string,
    before: ApiKey,
    after: ApiKey,
  ): Promise<void> {
    const changes = changesBetween(audited(before), audited(after), AUDITED_FIELDS);
    if (!isEmptyChange(changes)) await this.audit.record(tx, { ...by, action, target: keyTarget(after.id), changes });
  }

  private record(
    name: string,
    secret: string,
    plan: string,
    scopes: readonly Scope[],
    limits: KeyLimits | null,
  ): NewApiKeyRecord {
    const uniqueScopes = [...new Set(scopes)];
    return { name, prefix: visiblePrefix(secret), hash: hashApiKeySecret(secret), plan, scopes: uniqueScopes, limits };
  }
}
