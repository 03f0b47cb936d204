import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import request from 'supertest';
import { eventually } from './support/eventually.js';
import { expectError } from './support/http.js';
import { temporaryPlansFile } from './support/plans-file.js';
import { recreateDatabase, type ServiceProcess, startUntilReady } from './support/spawn-service.mjs';

/**
 * The admin console as the service serves it: the real process as `npm start` runs it
 * (the bundle, which must find the files `npm run build` puts in dist/console; a
 * Nest testing module would not serve them, as @nestjs/serve-static picks its loader
 * before the test gives the application its HTTP adapter), on a database of its own.
 * test/console.browser-spec.ts drives the page itself. Its page and
 * files under /console with a Content-Security-Policy of their own, any path below it
 * answered with the page (deep links), none of it counted against a rate limit, and
 * the API's answers with their `default-src 'none'` as before. Also GET
 * /admin/plans/loads, which the console's Plans page shows.
 */
const KEY = 'X-API-Key';
const table = (freePerMinute: number | string) => `plans:
  free: { perMinute: ${freePerMinute}, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
`;

const ADMIN_KEY = `psk_console_${randomBytes(16).toString('hex')}`;

describe('the admin console, served (e2e)', () => {
  let service: ServiceProcess;
  let plansFile: string;
  const api = () => request(service.base);

  beforeAll(async () => {
    plansFile = temporaryPlansFile(table(60));
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.pathname = '/console_e2e';
    await recreateDatabase(url.toString());
    service = await startUntilReady({
      env: {
        NODE_OPTIONS: undefined, // not Jest's --experimental-vm-modules
        DATABASE_URL: url.toString(),
        REDIS_URL: undefined,
        WEBHOOKS_SECRET_KEY: randomBytes(32).toString('base64'),
        BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
        PLANS_FILE: plansFile,
        // No file watching: the test has the table re-read (SIGHUP) when it means to.
        PLANS_WATCH_INTERVAL_MS: '0',
        LOG_LEVEL: 'warn',
      },
    });
  });
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
  });

  /** A key issued by the admin API. */
  async function issue(scopes: string[]): Promise<string> {
    const res = await api()
      .post('/admin/api-keys')
      .set(KEY, ADMIN_KEY)
      .send({
        name: `console e2e ${scopes.join('+')}`,
        plan: 'enterprise',
        scopes,
        limits: { perMinute: 10_000, perDay: 100_000 },
      })
      .expect(201);
    return (res.body as { key: string }).key;
  }

  /** SIGHUP, then the loads once the process has re-read the table. */
  async function reloaded(before: string | undefined): Promise<Record<string, unknown>> {
    service.child.kill('SIGHUP');
    let loads: Record<string, unknown> = {};
    await eventually(async () => {
      loads = (await api().get('/admin/plans/loads').set(KEY, ADMIN_KEY).expect(200)).body as Record<string, unknown>;
      return loads.lastReloadAt !== before;
    });
    return loads;
  }

  const policy = (res: request.Response) => String(res.headers['content-security-policy']);

  it('serves the page with a policy that allows only its own origin and no inline script or style', async () => {
    const res = await api().get('/console/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const directives = policy(res).split(';');
    expect(directives).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
      ]),
    );
    expect(policy(res)).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    // Every script and style is a file of the service's own: no inline <script> or <style>, nothing from elsewhere.
    const html = res.text;
    expect(html).toMatch(/<div id="app"><\/div>/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('redirects /console to the page, and answers a deep link with the page', async () => {
    await api().get('/console').expect(301).expect('Location', '/console/');
    const page = await api().get('/console/').expect(200);
    const deep = await api().get('/console/keys/42').expect(200);
    expect(deep.text).toBe(page.text);
    expect(policy(deep)).toBe(policy(page));
  });

  it("serves the page's files with its policy, cached for good (their names change with their content)", async () => {
    const page = await api().get('/console/').expect(200);
    const files = [...page.text.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1] ?? '');
    expect(files.map((file) => file.replace(/-[\w-]+\./, '.'))).toEqual(
      expect.arrayContaining(['/console/assets/index.js', '/console/assets/index.css']),
    );
    for (const file of files) {
      const res = await api().get(file).expect(200);
      expect(res.headers['content-type']).toMatch(file.endsWith('.js') ? /javascript/ : /text\/css/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(policy(res)).toBe(policy(page));
    }
  });

  it("answers a missing file, or a method the page does not serve, in the API's Error shape", async () => {
    const missing = await api().get('/console/assets/missing.js');
    expectError(missing, 404, 'ROUTE_NOT_FOUND');
    expect(policy(missing)).toBe("default-src 'none';frame-ancestors 'none'");
    const posted = await api().post('/console/keys').send({});
    expectError(posted, 405, 'METHOD_NOT_ALLOWED');
    expect(posted.headers.allow).toBe('GET, HEAD');
  });

  it('keeps the API policy on the API', async () => {
    const res = await api()
      .get('/pets')
      .set(KEY, await issue(['read']))
      .expect(200);
    expect(policy(res)).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it("counts none of the console's requests against the anonymous plan (as the health probes)", async () => {
    const before = await api().get('/pets');
    const remaining = Number(before.headers['x-ratelimit-remaining']);
    // More than the free plan's minute: none refused, none counted.
    for (let i = 0; i < 65; i++)
      await api()
        .get(i % 2 === 0 ? '/console/' : `/console/keys/${i}`)
        .expect(200);
    const after = await api().get('/pets');
    expect(Number(after.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
  });

  it('is in the route catalogue: the metrics name its route, not each path', async () => {
    await api().get('/console/keys/7').expect(200);
    await api().get('/console/').expect(200);
    await api().get('/console').expect(301);
    const metrics = (await api().get('/metrics').set(KEY, ADMIN_KEY).expect(200)).text;
    const routes = new Set([...metrics.matchAll(/route="(\/console[^"]*)"/g)].map((match) => match[1]));
    expect([...routes].sort()).toEqual(['/console', '/console/{*any}']);
  });

  describe('GET /admin/plans/loads', () => {
    it('tells when this instance read the table in force and how its last reload went', async () => {
      const admin = ADMIN_KEY;
      const started = await api().get('/admin/plans/loads').set(KEY, admin).expect(200);
      expect(Object.keys(started.body as object)).toEqual(['loadedAt']);
      const loadedAt = Date.parse((started.body as { loadedAt: string }).loadedAt);
      expect(loadedAt).toBeLessThanOrEqual(Date.now());

      writeFileSync(plansFile, table('"sixty"'));
      const failed = await reloaded(undefined);
      expect(failed).toEqual({
        loadedAt: new Date(loadedAt).toISOString(),
        lastReloadAt: expect.any(String),
        lastReloadSucceeded: false,
      });

      writeFileSync(plansFile, table(61));
      const succeeded = await reloaded(String(failed.lastReloadAt));
      expect(succeeded).toEqual({
        loadedAt: succeeded.lastReloadAt,
        lastReloadAt: expect.any(String),
        lastReloadSucceeded: true,
      });
      expect(Date.parse(String(succeeded.loadedAt))).toBeGreaterThanOrEqual(loadedAt);
      const plans = (await api().get('/admin/plans').set(KEY, admin).expect(200)).body as { name: string }[];
      expect(plans.find((plan) => plan.name === 'free')).toEqual({ name: 'free', perMinute: 61, perDay: 1000 });
    });

    it('needs the admin scope', async () => {
      const res = await api()
        .get('/admin/plans/loads')
        .set(KEY, await issue(['read', 'write']));
      expectError(res, 403, 'INSUFFICIENT_SCOPE');
    });
  });
});
