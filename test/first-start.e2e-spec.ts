import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { CaptureLogger } from './support/capture-logger.js';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

interface ListedKey {
  id: number;
  name: string;
  plan: string;
  scopes: string[];
  limits?: { perMinute: number; perDay: number };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const newSecret = () => `bootstrap-${randomBytes(24).toString('hex')}`;

/**
 * API.md section 4 (first-start admin key) and the demo catalogue of section 8:
 * what a fresh database gets when the service starts on it, and what a restart leaves alone.
 */
describe('first start (e2e)', () => {
  const open: TestApp[] = [];

  async function start(env: Record<string, string> = {}, logger?: CaptureLogger): Promise<TestApp> {
    const app = await createTestApp(env, { logger });
    open.push(app);
    return app;
  }

  async function stopAll(): Promise<void> {
    while (open.length > 0) await open.pop()!.close();
  }

  /** Leaves the database without any row: the next start is a first start. */
  async function emptyDatabase(): Promise<void> {
    await stopAll();
    const app = await createTestApp();
    await app.reset();
    await app.close();
  }

  async function keyRows(app: TestApp): Promise<Array<Record<string, unknown>>> {
    return app.db.query('SELECT * FROM api_keys ORDER BY id');
  }

  afterEach(stopAll);

  describe('BOOTSTRAP_ADMIN_KEY', () => {
    const secret = newSecret();

    it('is registered on an empty database as an enterprise key with read, write and admin', async () => {
      await emptyDatabase();
      const t = await start({ BOOTSTRAP_ADMIN_KEY: secret });

      const res = await request(t.http).get('/admin/api-keys').set(KEY, secret).expect(200);
      const keys = res.body as ListedKey[];
      expect(keys).toHaveLength(1);
      expect(keys[0].plan).toBe('enterprise');
      expect([...keys[0].scopes].sort()).toEqual(['admin', 'read', 'write']);
      expect(keys[0].limits).toEqual({ perMinute: 100_000, perDay: 10_000_000 });

      await request(t.http).get('/admin/plans').set(KEY, secret).expect(200);
      await request(t.http).get('/pets').set(KEY, secret).expect(200);
      await request(t.http).post('/categories').set(KEY, secret).send({ name: 'Bootstrapped' }).expect(201);

      const rows = await keyRows(t);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(secret);
      expect(JSON.stringify(rows)).toContain(sha256(secret));
    });

    it('is in the audit log once, made by the system, without its secret', async () => {
      await emptyDatabase();
      const t = await start({ BOOTSTRAP_ADMIN_KEY: secret });
      await t.close();
      open.pop();
      const again = await start({ BOOTSTRAP_ADMIN_KEY: secret });

      const res = await request(again.http).get('/admin/audit-log?action=api_key.created').set(KEY, secret).expect(200);
      const entries = res.body as Array<{
        actor: { type: string };
        target: { type: string; id: string };
        changes: object;
      }>;
      expect(entries).toHaveLength(1);
      expect(entries[0].actor).toEqual({ type: 'system' });
      expect(entries[0].target.type).toBe('api_key');
      expect(entries[0].changes).toMatchObject({ name: [null, 'bootstrap admin'], plan: [null, 'enterprise'] });
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(JSON.stringify(res.body)).not.toContain(sha256(secret));
    });

    it('is not registered again, nor replaced, when keys already exist', async () => {
      const other = newSecret();
      const t = await start({ BOOTSTRAP_ADMIN_KEY: other });
      expectError(await request(t.http).get('/pets').set(KEY, other), 401, 'INVALID_API_KEY');
      const res = await request(t.http).get('/admin/api-keys').set(KEY, secret).expect(200);
      expect(res.body).toHaveLength(1);
      expect(await keyRows(t)).toHaveLength(1);
    });

    it('takes configured limits', async () => {
      await emptyDatabase();
      const own = newSecret();
      const t = await start({
        BOOTSTRAP_ADMIN_KEY: own,
        BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE: '5000',
        BOOTSTRAP_ADMIN_LIMIT_PER_DAY: '70000',
      });
      const res = await request(t.http).get('/admin/api-keys').set(KEY, own).expect(200);
      expect((res.body as ListedKey[])[0].limits).toEqual({ perMinute: 5000, perDay: 70_000 });
    });

    it('must be at least 32 characters long, else the service does not start', async () => {
      await expect(createTestApp({ BOOTSTRAP_ADMIN_KEY: 'x'.repeat(31) })).rejects.toThrow(/BOOTSTRAP_ADMIN_KEY/);
    });
  });

  describe('without BOOTSTRAP_ADMIN_KEY', () => {
    it('creates one admin key on an empty database and prints it once', async () => {
      await emptyDatabase();
      const logger = new CaptureLogger();
      const t = await start({}, logger);
      const printed =
        logger
          .text()
          .join('\n')
          .match(/psk_[A-Za-z0-9_-]{22,}/g) ?? [];
      expect(printed).toHaveLength(1);
      const secret = String(printed[0]);

      const res = await request(t.http).get('/admin/api-keys').set(KEY, secret).expect(200);
      const keys = res.body as ListedKey[];
      expect(keys).toHaveLength(1);
      expect(keys[0].plan).toBe('enterprise');
      expect([...keys[0].scopes].sort()).toEqual(['admin', 'read', 'write']);
      expect(JSON.stringify(await keyRows(t))).not.toContain(secret);

      await stopAll();
      const again = new CaptureLogger();
      const restarted = await start({}, again);
      expect(again.text().join('\n')).not.toMatch(/psk_/);
      expect(await keyRows(restarted)).toHaveLength(1);
      await request(restarted.http).get('/pets').set(KEY, secret).expect(200);
    });
  });

  describe('demo catalogue (SEED_DEMO_DATA)', () => {
    const names = (body: unknown) => (body as Array<{ name: string }>).map((item) => item.name);

    it('loads a few categories and pets on an empty database', async () => {
      await emptyDatabase();
      const t = await start({ SEED_DEMO_DATA: 'true' });
      const key = await t.key(['read'], 'enterprise');
      const categories = await request(t.http).get('/categories?limit=100').set(KEY, key).expect(200);
      expect(names(categories.body).sort()).toEqual(['Birds', 'Cats', 'Dogs']);
      const pets = await request(t.http).get('/pets?limit=100').set(KEY, key).expect(200);
      const list = pets.body as Array<{ name: string; status: string; categoryId: number }>;
      expect(list).toHaveLength(6);
      expect(new Set(list.map((p) => p.status))).toEqual(new Set(['available', 'pending', 'sold']));
      const categoryIds = new Set((categories.body as Array<{ id: number }>).map((c) => c.id));
      expect(list.every((p) => categoryIds.has(p.categoryId))).toBe(true);
    });

    it('does not load it twice', async () => {
      const t = await start({ SEED_DEMO_DATA: 'true' });
      const key = await t.key(['read'], 'enterprise');
      const categories = await request(t.http).get('/categories?limit=100').set(KEY, key).expect(200);
      expect(categories.body).toHaveLength(3);
      const pets = await request(t.http).get('/pets?limit=100').set(KEY, key).expect(200);
      expect(pets.body).toHaveLength(6);
    });

    it('leaves a catalogue that has data alone', async () => {
      await emptyDatabase();
      const first = await start();
      const key = await first.key(['read', 'write'], 'enterprise');
      await request(first.http).post('/categories').set(KEY, key).send({ name: 'Fish' }).expect(201);
      await stopAll();

      const t = await start({ SEED_DEMO_DATA: 'true' });
      const categories = await request(t.http).get('/categories?limit=100').set(KEY, key).expect(200);
      expect(names(categories.body)).toEqual(['Fish']);
    });

    it('is loaded once, with one admin key, when two instances start together on an empty database', async () => {
      await emptyDatabase();
      const env = { ...process.env };
      try {
        const apps = await Promise.all([start({ SEED_DEMO_DATA: 'true' }), start({ SEED_DEMO_DATA: 'true' })]);
        expect(await keyRows(apps[0])).toHaveLength(1);
        const [{ count: categories }] = await apps[0].db.query('SELECT count(*)::int AS count FROM categories');
        const [{ count: pets }] = await apps[0].db.query('SELECT count(*)::int AS count FROM pets');
        expect({ categories, pets }).toEqual({ categories: 3, pets: 6 });
      } finally {
        // Two overlapping starts restore each other's overrides: put the environment back as it was.
        process.env = env;
      }
    });
  });
});
