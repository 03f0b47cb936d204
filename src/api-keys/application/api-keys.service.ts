import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import {
  type ApiKey,
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
import { ApiKeyNotFoundError } from '../domain/api-key.errors.js';
import { assertLimitsFitPlan } from '../domain/api-key-policy.js';
import { addressRules, assertExpiryInFuture, previousKeyExpiry } from '../domain/api-key-lifecycle.js';
import { TransactionalApiKeyStore } from '../domain/transactional-api-key.store.js';

/** The fields of a key that its audit entries show: never its hashes (nor, of course, its secret). */
const AUDITED_FIELDS = [
  'name',
  'prefix',
  'plan',
  'scopes',
  'limits',
  'expiresAt',
  'allowedAddresses',
  'revokedAt',
  'previousKeyExpiresAt',
] as const satisfies readonly (keyof ApiKey)[];

function keyTarget(id: number): { type: string; id: string } {
  return { type: 'api_key', id: String(id) };
}

export interface NewApiKey {
  readonly name: string;
  readonly plan: PlanName;
  readonly scopes: readonly Scope[];
  readonly limits?: KeyLimits | null;
  readonly expiresAt?: Date | null;
  readonly allowedAddresses?: readonly string[] | null;
}

export interface ApiKeyUpdate {
  readonly plan?: PlanName;
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
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    /** Absent where no limiter runs (the keys CLI). */
    @Optional() private readonly limiter?: RateLimiter,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  async create(input: NewApiKey, by: AuditContext = SYSTEM): Promise<IssuedApiKey> {
    const limits = input.limits ?? null;
    assertLimitsFitPlan(input.plan, limits);
    assertExpiryInFuture(input.expiresAt, this.clock.now());
    const allowedAddresses = addressRules(input.allowedAddresses) ?? null;
    const secret = generateApiKeySecret();
    const record = {
      ...this.record(input.name, secret, input.plan, input.scopes, limits),
      expiresAt: input.expiresAt ?? null,
      allowedAddresses,
    };
    const key = await this.uow.run(async (tx) => {
      const created = await this.stores.in(tx).create(record);
      await this.audit.record(tx, {
        ...by,
        action: 'api_key.created',
        target: keyTarget(created.id),
        changes: changesBetween(null, created, AUDITED_FIELDS),
      });
      return created;
    });
    this.resolver.invalidateHash(record.hash);
    return { key, secret };
  }

  async list({ limit, afterId }: PageRequest): Promise<Page<ApiKey>> {
    return toPage(await this.store.list(afterId, limit + 1), limit);
  }

  async get(id: number): Promise<ApiKey> {
    const key = await this.store.findById(id);
    if (!key) throw new ApiKeyNotFoundError(id);
    return key;
  }

  async update(id: number, changes: ApiKeyUpdate, by: AuditContext = SYSTEM): Promise<ApiKey> {
    const updated = await this.uow.run(async (tx) => {
      const store = this.stores.in(tx);
      const current = await store.findById(id);
      if (!current) throw new ApiKeyNotFoundError(id);
      const plan = changes.plan ?? current.plan;
      // Leaving the enterprise plan drops its per-key limits unless new ones are given.
      const limits = changes.limits !== undefined ? changes.limits : plan === 'enterprise' ? current.limits : null;
      assertLimitsFitPlan(plan, limits);
      assertExpiryInFuture(changes.expiresAt, this.clock.now());
      const allowedAddresses = addressRules(changes.allowedAddresses);
      const scopes = changes.scopes && [...new Set(changes.scopes)];
      const after = await store.update(id, { plan, scopes, limits, expiresAt: changes.expiresAt, allowedAddresses });
      if (!after) throw new ApiKeyNotFoundError(id);
      await this.recordChange(tx, by, 'api_key.updated', current, after);
      return after;
    });
    this.resolver.invalidate(id);
    return updated;
  }

  async revoke(id: number, by: AuditContext = SYSTEM): Promise<void> {
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
  async roll(id: number, overlapSeconds?: number, by: AuditContext = SYSTEM): Promise<RolledApiKey> {
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
  async endOverlap(id: number, by: AuditContext = SYSTEM): Promise<ApiKey> {
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
  async unban(id: number, by: AuditContext = SYSTEM): Promise<void> {
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
   * an enterprise key with every scope. Null when keys already exist.
   */
  async registerFirstAdminKey(secret: string): Promise<ApiKey | null> {
    const record = this.record(
      'bootstrap admin',
      secret,
      'enterprise',
      ['read', 'write', 'admin'],
      this.config.bootstrapAdminLimits,
    );
    const created = await this.store.createIfNoneExist(record);
    if (created) this.resolver.invalidateHash(record.hash);
    return created;
  }

  /** Records the change from `before` to `after` of a key, unless nothing shown changed. */
  private async recordChange(
    tx: Transaction,
    by: AuditContext,
    action: string,
    before: ApiKey,
    after: ApiKey,
  ): Promise<void> {
    const changes = changesBetween(before, after, AUDITED_FIELDS);
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
