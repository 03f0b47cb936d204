import { SYSTEM } from '../src/audit/index.js';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import request from 'supertest';
import { ApiKeysService } from '../src/api-keys/application/api-keys.service.js';
import { AuditLogSweep } from '../src/audit/application/audit-log-sweep.js';
import { PlanTableService } from '../src/rate-limits/plan-table.js';
import { PlanTableAudit, planTableId } from '../src/rate-limits/plan-table-audit.js';
import { expectError, followPages, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * The audit log (GET /admin/audit-log): every admin change over HTTP leaves one entry
 * with its actor, request id and before/after, never a secret or a hash (keys and
 * accounts, a key's account included); filters and
 * paging newest first; the retention sweep on PostgreSQL; one entry per plan table
 * whatever the number of instances that apply it.
 */
interface Entry {
  id: number;
  at: string;
  actor: { type: string; id?: number; address?: string };
  requestId?: string;
  action: string;
  target: { type: string; id: string };
  changes: Record<string, [unknown, unknown]>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const DAY_MS = 86_400_000;

function plansText(freePerMinute: number): string {
  return `plans:
  free: { perMinute: ${freePerMinute}, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
`;
}

const plansFile = (freePerMinute: number): string => temporaryPlansFile(plansText(freePerMinute));
const writePlans = (file: string, freePerMinute: number): void => writeFileSync(file, plansText(freePerMinute));

describe('audit log (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  const secrets: string[] = [];
  const api = () => request(t.http);
  const ADMIN_ADDRESS = '203.0.113.9';
  const asAdmin = (test: request.Test) => test.set(KEY, admin).set('X-Forwarded-For', ADMIN_ADDRESS);

  beforeAll(async () => {
    t = await createTestApp({
      REDIS_URL: '',
      PLANS_FILE: plansFile(3),
      PLANS_WATCH_INTERVAL_MS: '0',
      BAN_THRESHOLD_MULTIPLIER: '1',
      TRUST_PROXY: 'loopback',
    });
    await t.reset();
    const issued = await t.app.get(ApiKeysService).create(
      {
        name: 'admin',
        plan: 'enterprise',
        scopes: ['read', 'write', 'admin'],
        limits: { perMinute: 100_000, perDay: 1_000_000 },
      },
      SYSTEM,
    );
    admin = issued.secret;
    adminId = issued.key.id;
    secrets.push(admin);
  });
  afterAll(() => t?.close());

  async function entries(query: Record<string, string | number> = {}): Promise<Entry[]> {
    const res = await asAdmin(
      api()
        .get('/admin/audit-log')
        .query({ limit: 100, ...query }),
    ).expect(200);
    return res.body as Entry[];
  }

  /** Everything the log shows, whole, checked for every secret issued and every hash stored. */
  async function expectNoSecretOrHash(): Promise<void> {
    const text = JSON.stringify(await entries());
    const hashes: Array<{ key_hash: string; previous_key_hash: string | null }> = await t.db.query(
      'SELECT key_hash, previous_key_hash FROM api_keys',
    );
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(sha256(secret));
    }
    for (const row of hashes) {
      expect(text).not.toContain(row.key_hash.trim());
      if (row.previous_key_hash) expect(text).not.toContain(row.previous_key_hash.trim());
    }
  }

  /** Sends until the client is banned (429 API_KEY_BANNED). */
  async function ban(send: () => request.Test): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const res = await send();
      if (res.status === 429 && (res.body as { code: string }).code === 'API_KEY_BANNED') return;
    }
    throw new Error('never banned');
  }

  describe('every admin change leaves exactly one entry', () => {
    let keyId: number;

    /** The one entry of `action` on the key, after the request `res` made it. */
    async function onlyEntry(action: string, res: request.Response, target = String(keyId)): Promise<Entry> {
      const found = await entries({ action, targetId: target });
      expect(found).toHaveLength(1);
      const [entry] = found;
      expect(entry.actor).toEqual({ type: 'api_key', id: adminId, address: ADMIN_ADDRESS });
      expect(entry.requestId).toBe(res.headers['x-request-id']);
      expect(Math.abs(Date.parse(entry.at) - Date.now())).toBeLessThan(60_000);
      return entry;
    }

    it('api_key.created, with the key as created (never its secret)', async () => {
      const res = await asAdmin(api().post('/admin/api-keys'))
        .send({ name: 'billing', plan: 'free', scopes: ['read'], expiresAt: '2030-01-01T00:00:00Z' })
        .expect(201);
      keyId = res.body.id;
      secrets.push(res.body.key);
      const entry = await onlyEntry('api_key.created', res);
      expect(entry.target).toEqual({ type: 'api_key', id: String(keyId) });
      expect(entry.changes).toEqual({
        name: [null, 'billing'],
        prefix: [null, res.body.prefix],
        plan: [null, 'free'],
        scopes: [null, ['read']],
        expiresAt: [null, '2030-01-01T00:00:00.000Z'],
      });
    });

    it('api_key.updated, with only the fields that changed', async () => {
      const res = await asAdmin(api().patch(`/admin/api-keys/${keyId}`))
        .send({ plan: 'pro', scopes: ['read', 'write'], allowedAddresses: ['203.0.113.0/24'], expiresAt: null })
        .expect(200);
      expect((await onlyEntry('api_key.updated', res)).changes).toEqual({
        plan: ['free', 'pro'],
        scopes: [['read'], ['read', 'write']],
        allowedAddresses: [null, ['203.0.113.0/24']],
        expiresAt: ['2030-01-01T00:00:00.000Z', null],
      });
    });

    it('api_key.rolled, with the new prefix and the end of the overlap', async () => {
      const before = (await asAdmin(api().get(`/admin/api-keys/${keyId}`)).expect(200)).body as { prefix: string };
      const res = await asAdmin(api().post(`/admin/api-keys/${keyId}/roll`))
        .send({ overlapSeconds: 3600 })
        .expect(200);
      secrets.push(res.body.key);
      const after = (await asAdmin(api().get(`/admin/api-keys/${keyId}`)).expect(200)).body as { prefix: string };
      expect((await onlyEntry('api_key.rolled', res)).changes).toEqual({
        prefix: [before.prefix, after.prefix],
        previousKeyExpiresAt: [null, res.body.previousKeyExpiresAt],
      });
    });

    it('api_key.overlap_ended, with when the previous secret stopped', async () => {
      const rolled = (await entries({ action: 'api_key.rolled', targetId: String(keyId) }))[0];
      const res = await asAdmin(api().post(`/admin/api-keys/${keyId}/roll/end-overlap`)).expect(204);
      const ended = await asAdmin(api().get(`/admin/api-keys/${keyId}`)).expect(200);
      expect((await onlyEntry('api_key.overlap_ended', res)).changes).toEqual({
        previousKeyExpiresAt: [rolled.changes.previousKeyExpiresAt[1], ended.body.previousKeyExpiresAt],
      });
    });

    it('api_key.unbanned, with when the ban would have ended', async () => {
      const secret = (
        await asAdmin(api().post('/admin/api-keys')).send({ name: 'noisy', plan: 'free', scopes: ['read'] })
      ).body as { id: number; key: string };
      secrets.push(secret.key);
      await ban(() => api().get('/categories').set(KEY, secret.key));
      const res = await asAdmin(api().post(`/admin/api-keys/${secret.id}/unban`)).expect(204);
      const entry = await onlyEntry('api_key.unbanned', res, String(secret.id));
      expect(entry.changes).toEqual({ bannedUntil: [expect.any(String), null] });
      expect(Date.parse(entry.changes.bannedUntil[0] as string)).toBeGreaterThan(Date.now());
    });

    it('address.unbanned, naming the address (an IPv6 client as its /64)', async () => {
      await ban(() => api().get('/categories').set('X-Forwarded-For', '2001:db8:cc:1::1'));
      const res = await asAdmin(api().delete('/admin/bans/addresses').query({ address: '2001:db8:cc:1::9' })).expect(
        204,
      );
      const entry = await onlyEntry('address.unbanned', res, '2001:db8:cc:1::/64');
      expect(entry.target).toEqual({ type: 'address', id: '2001:db8:cc:1::/64' });
      expect(entry.changes).toEqual({ bannedUntil: [expect.any(String), null] });
    });

    it('api_key.revoked, with when it was revoked', async () => {
      const res = await asAdmin(api().delete(`/admin/api-keys/${keyId}`)).expect(204);
      const entry = await onlyEntry('api_key.revoked', res);
      expect(entry.changes).toEqual({ revokedAt: [null, expect.any(String)] });
      // Revoking it again changes nothing, and records nothing.
      await asAdmin(api().delete(`/admin/api-keys/${keyId}`)).expect(204);
      expect(await entries({ action: 'api_key.revoked', targetId: String(keyId) })).toHaveLength(1);
    });

    it('a refused change records nothing', async () => {
      const count = (await entries({ targetId: String(keyId) })).length;
      const refused = await asAdmin(api().patch(`/admin/api-keys/${keyId}`)).send({
        limits: { perMinute: 1, perDay: 2 },
      });
      expect(refused.status).toBe(400); // limits are for the enterprise plan only
      expectError(await asAdmin(api().post('/admin/api-keys/999999/roll')).send({}), 404, 'API_KEY_NOT_FOUND');
      expect(await entries({ targetId: String(keyId) })).toHaveLength(count);
    });

    it('shows no secret and no hash anywhere in the log', async () => {
      await expectNoSecretOrHash();
    });
  });

  describe('filters and paging', () => {
    it('lists newest first, paged by cursor with a next link, no entry twice', async () => {
      const all = await entries();
      const ids = all.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const pages = await followPages(t.http, admin, '/admin/audit-log?limit=2');
      expect(pages.length).toBe(Math.ceil(all.length / 2));
      expect(pages.flatMap((p) => (p.body as Entry[]).map((e) => e.id))).toEqual(ids);
    });

    it('filters by action, target, acting key and time', async () => {
      const all = await entries();
      expect((await entries({ action: 'api_key.updated' })).map((e) => e.action)).toEqual(['api_key.updated']);
      expect((await entries({ targetType: 'address' })).every((e) => e.target.type === 'address')).toBe(true);
      const byAdmin = await entries({ actorKeyId: adminId });
      expect(byAdmin.length).toBe(all.filter((e) => e.actor.id === adminId).length);
      expect(await entries({ actorKeyId: 999_999 })).toEqual([]);
      const pivot = all[Math.floor(all.length / 2)];
      const from = await entries({ from: pivot.at });
      const to = await entries({ to: pivot.at });
      expect(from.every((e) => e.at >= pivot.at)).toBe(true);
      expect(to.every((e) => e.at < pivot.at)).toBe(true);
      expect(from.length + to.length).toBe(all.length);
    });

    it('refuses bad filters with 400 VALIDATION_FAILED, and non-admin keys with 403', async () => {
      for (const query of [
        { actorKeyId: 'abc' },
        { actorKeyId: '0' },
        { action: 'Drop Table' },
        { from: 'yesterday' },
        { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' },
        { cursor: 'not-a-cursor' },
        { limit: '0' },
        { unknown: 'x' },
      ]) {
        expectError(await asAdmin(api().get('/admin/audit-log').query(query)), 400, 'VALIDATION_FAILED');
      }
      const reader = await t.key(['read', 'write']);
      expectError(await api().get('/admin/audit-log').set(KEY, reader), 403, 'INSUFFICIENT_SCOPE');
    });
  });

  describe('accounts: every change leaves exactly one entry', () => {
    let accountId: number;

    /** The one entry of `action` on the account, made by the admin in the request `res`. */
    async function onlyAccountEntry(action: string, res: request.Response): Promise<Entry> {
      const found = await entries({ action, targetType: 'account', targetId: String(accountId) });
      expect(found).toHaveLength(1);
      const [entry] = found;
      expect(entry.actor).toEqual({ type: 'api_key', id: adminId, address: ADMIN_ADDRESS });
      expect(entry.requestId).toBe(res.headers['x-request-id']);
      expect(entry.target).toEqual({ type: 'account', id: String(accountId) });
      return entry;
    }

    it('account.created, with the account as created', async () => {
      const res = await asAdmin(api().post('/admin/accounts'))
        .send({ name: 'Acme', plan: 'pro', externalId: 'cus_audit' })
        .expect(201);
      accountId = res.body.id;
      expect((await onlyAccountEntry('account.created', res)).changes).toEqual({
        name: [null, 'Acme'],
        plan: [null, 'pro'],
        externalId: [null, 'cus_audit'],
      });
    });

    it('account.updated, with only the fields that changed; nothing when nothing changed or it is refused', async () => {
      const res = await asAdmin(api().patch(`/admin/accounts/${accountId}`))
        .send({ name: 'Acme Ltd', plan: 'business' })
        .expect(200);
      expect((await onlyAccountEntry('account.updated', res)).changes).toEqual({
        name: ['Acme', 'Acme Ltd'],
        plan: ['pro', 'business'],
      });
      await asAdmin(api().patch(`/admin/accounts/${accountId}`))
        .send({ name: 'Acme Ltd' })
        .expect(200);
      const other = (await asAdmin(api().post('/admin/accounts')).send({ name: 'Other', plan: 'free' }).expect(201))
        .body as { id: number };
      expectError(
        await asAdmin(api().patch(`/admin/accounts/${other.id}`)).send({ externalId: 'cus_audit' }),
        409,
        'ACCOUNT_EXTERNAL_ID_TAKEN',
      );
      expect(await entries({ action: 'account.updated', targetType: 'account' })).toHaveLength(1);
    });

    it("a key's account in api_key.created and api_key.updated: moving a key in shows accountId [null, id]", async () => {
      const inside = await asAdmin(api().post('/admin/api-keys'))
        .send({ name: 'svc-a', scopes: ['read'], accountId })
        .expect(201);
      secrets.push(inside.body.key);
      const created = await entries({ action: 'api_key.created', targetId: String(inside.body.id) });
      expect(created).toHaveLength(1);
      expect(created[0].changes).toMatchObject({ accountId: [null, accountId], plan: [null, 'business'] });

      const alone = await asAdmin(api().post('/admin/api-keys'))
        .send({ name: 'svc-b', plan: 'free', scopes: ['read'] })
        .expect(201);
      secrets.push(alone.body.key);
      expect(
        (await entries({ action: 'api_key.created', targetId: String(alone.body.id) }))[0].changes,
      ).not.toHaveProperty('accountId');
      const moved = await asAdmin(api().patch(`/admin/api-keys/${alone.body.id}`))
        .send({ accountId })
        .expect(200);
      const updated = await entries({ action: 'api_key.updated', targetId: String(alone.body.id) });
      expect(updated).toHaveLength(1);
      expect(updated[0].requestId).toBe(moved.headers['x-request-id']);
      expect(updated[0].changes).toEqual({ plan: ['free', 'business'], accountId: [null, accountId] });
    });

    it('account.deleted, with the account as it was; nothing while it has live keys (409)', async () => {
      expectError(await asAdmin(api().delete(`/admin/accounts/${accountId}`)), 409, 'ACCOUNT_HAS_LIVE_KEYS');
      expect(await entries({ action: 'account.deleted', targetType: 'account' })).toEqual([]);
      const keys = (await asAdmin(api().get('/admin/api-keys').query({ accountId })).expect(200)).body as Array<{
        id: number;
      }>;
      expect(keys).toHaveLength(2);
      for (const key of keys) await asAdmin(api().delete(`/admin/api-keys/${key.id}`)).expect(204);
      const res = await asAdmin(api().delete(`/admin/accounts/${accountId}`)).expect(204);
      expect((await onlyAccountEntry('account.deleted', res)).changes).toEqual({
        name: ['Acme Ltd', null],
        plan: ['business', null],
        externalId: ['cus_audit', null],
      });
      expectError(await asAdmin(api().delete(`/admin/accounts/${accountId}`)), 404, 'ACCOUNT_NOT_FOUND');
      expect(await entries({ action: 'account.deleted', targetType: 'account' })).toHaveLength(1);
      await expectNoSecretOrHash();
    });
  });

  describe('retention', () => {
    it('the sweep deletes the entries older than AUDIT_RETENTION_DAYS from PostgreSQL, in batches', async () => {
      const old = new Date(Date.now() - 401 * DAY_MS);
      await t.db.query(
        `INSERT INTO audit_log (at, actor_type, action, target_type, target_id, changes)
         SELECT $1, 'cli', 'api_key.revoked', 'api_key', 'old-' || n, '{}'::jsonb FROM generate_series(1, 2500) n`,
        [old],
      );
      const count = async (): Promise<{ old: number; recent: number }> =>
        (
          await t.db.query(
            `SELECT count(*) FILTER (WHERE at < now() - interval '400 days')::int AS old,
                    count(*) FILTER (WHERE at >= now() - interval '400 days')::int AS recent FROM audit_log`,
          )
        )[0];
      const before = await count();
      expect(before.old).toBe(2500);
      expect(before.recent).toBeGreaterThan(0);
      expect(await t.app.get(AuditLogSweep).sweep()).toBe(2500);
      expect(await count()).toEqual({ old: 0, recent: before.recent });
    });
  });
});

describe('plan table reloads in the audit log (e2e)', () => {
  let file: string;
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  const start = async () => {
    const app = await createTestApp({ REDIS_URL: '', PLANS_FILE: file, PLANS_WATCH_INTERVAL_MS: '0' });
    apps.push(app);
    await app.app.get(PlanTableAudit).settled();
    return app;
  };
  const reloads = (t: TestApp) =>
    t.db.query<Array<{ target_id: string; changes: Record<string, [unknown, unknown]>; actor_type: string }>>(
      `SELECT target_id, changes, actor_type FROM audit_log WHERE action = 'plans.reloaded' ORDER BY id`,
    );

  it('records a changed table once, however many instances reload it; a start-up with a changed file too', async () => {
    file = plansFile(60);
    const a = await start();
    await a.reset();
    // The reset emptied the log: b records the table in force, and an instance started with the same table does not.
    const b = await start();
    await start();
    expect(await reloads(a)).toHaveLength(1);
    const first = (await reloads(a))[0];
    expect(first.actor_type).toBe('system');
    expect(first.target_id).toBe(planTableId(a.app.get(PlanTableService).current()));

    writePlans(file, 120);
    for (const app of [a, b]) expect(app.app.get(PlanTableService).reload('SIGHUP')).toBe(true);
    await Promise.all([a, b].map((app) => app.app.get(PlanTableAudit).settled()));
    const afterReload = await reloads(a);
    expect(afterReload).toHaveLength(2);
    expect(afterReload[1].target_id).toBe(planTableId(b.app.get(PlanTableService).current()));
    expect(afterReload[1].changes).toEqual({
      free: [
        { perMinute: 60, perDay: 1000 },
        { perMinute: 120, perDay: 1000 },
      ],
    });
    // A reload that changes nothing records nothing.
    expect(a.app.get(PlanTableService).reload('SIGHUP')).toBe(true);
    await a.app.get(PlanTableAudit).settled();
    expect(await reloads(a)).toHaveLength(2);

    // An instance started after the file changed again records the new table, once.
    writePlans(file, 90);
    const c = await start();
    await start();
    const afterStart = await reloads(c);
    expect(afterStart).toHaveLength(3);
    expect(afterStart[2].target_id).toBe(planTableId(c.app.get(PlanTableService).current()));
  });
});
