import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { eventually } from './support/eventually.js';
import { recreateDatabase, type ServiceProcess, startUntilReady } from './support/spawn-service.mjs';

/**
 * The admin console in a real browser: Debian's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium) driven headless by playwright-core, against the real service
 * (`node dist/petstore.cjs`, as `npm start` runs it) on a database of its own on the
 * suite's PostgreSQL. What a person does in the console is checked against what the
 * API then answers. Every page is screenshot at 1280 and 390 px into
 * test-results/console/ (gitignored) and checked with axe-core (no serious or critical
 * violation). The run fails on any console error, any 5xx and any failed request,
 * except the refusals a test causes on purpose (a non-admin key's 403, a wrong key's 401).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve('test-results/console');
const WIDTHS = [1280, 390] as const;
const ADMIN_KEY = `psk_console_${randomBytes(16).toString('hex')}`;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What the test reads of a <canvas> (the tests are type-checked without the DOM's types). */
interface Canvas {
  readonly width: number;
  readonly height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

let service: ServiceProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** What went wrong in the browser that no test asked for. */
const problems: string[] = [];
/** The statuses the test under way causes on purpose (the browser logs each as a console error). */
let expectedStatuses: readonly number[] = [];

async function apiCall(
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.base}${path}`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const admin = (method: string, path: string, body?: unknown) => apiCall(method, path, ADMIN_KEY, body);

/** Opens a console page by its URL (a deep link) and waits until it has loaded. */
async function open(path: string): Promise<void> {
  await settled(); // what the page shown asked for is answered first: leaving it would abort its requests
  await page.goto(`${service.base}/console${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByText('Loading…').waitFor({ state: 'detached' });
  await settled();
}

/** Every request of the page answered: leaving it earlier would abort them (failed requests, which fail the run). */
async function settled(): Promise<void> {
  await page.waitForLoadState('networkidle');
}

/** Screenshots of the page shown at both widths, and axe-core's check of each. */
async function capture(name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    // Evaluated by the DevTools protocol, which the page's Content-Security-Policy does not govern.
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
      const { violations } = await axe.run();
      return violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
    });
    expect({ page: name, width, violations }).toEqual({ page: name, width, violations: [] });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function signIn(key: string): Promise<void> {
  await page.getByLabel('Admin API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The secret the console shows once after issuing or rolling a key. */
async function shownSecret(): Promise<string> {
  const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
  expect(secret).toMatch(/^psk_/);
  return secret;
}

/** Issues a key with the Keys page's form. */
async function issueKey(name: string, account?: string): Promise<{ id: number; secret: string }> {
  await open('/keys');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Plan', { exact: true }).selectOption('free');
  if (account) await page.getByLabel('Account', { exact: true }).selectOption({ label: account });
  await page.getByRole('button', { name: 'Issue the key' }).click();
  await page.getByText('this is the only time it is shown').waitFor();
  const secret = await shownSecret();
  const href = await page.getByRole('status').getByRole('link', { name }).getAttribute('href');
  const id = Number(/\/keys\/(\d+)$/.exec(href ?? '')?.[1]);
  await page.getByRole('button', { name: 'I have copied it' }).click();
  return { id, secret };
}

async function windowLimits(): Promise<string[]> {
  const rows = page.getByRole('region', { name: "The key's rate-limit windows now" }).locator('tbody tr');
  return rows.evaluateAll((trs) => trs.map((tr) => `${tr.children[0]?.textContent}:${tr.children[1]?.textContent}`));
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error('DATABASE_URL is set by the global setup');
  const url = new URL(server);
  url.pathname = '/console_browser';
  await recreateDatabase(url.toString());
  service = await startUntilReady({
    name: 'the service',
    env: {
      NODE_OPTIONS: undefined, // not Jest's --experimental-vm-modules
      DATABASE_URL: url.toString(),
      REDIS_URL: undefined,
      WEBHOOKS_SECRET_KEY: randomBytes(32).toString('base64'),
      BOOTSTRAP_ADMIN_KEY: ADMIN_KEY,
      USAGE_FLUSH_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
    },
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A fresh profile every run (Playwright's own temporary user-data-dir), nothing from the network but the service.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.base });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = /status of (\d{3})/.exec(message.text())?.[1];
    if (status && expectedStatuses.includes(Number(status))) return;
    problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.method()} ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 500)
      problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  service?.child.kill('SIGTERM');
  await service?.exited;
});

beforeEach(() => {
  expectedStatuses = [];
});

afterEach(() => {
  expect(problems.splice(0)).toEqual([]);
});

/** A step of the person's session: a browser round trip takes longer than an API call. */
const step = (name: string, run: () => Promise<void>) => it(name, run, 90_000);

describe('the admin console in Chromium', () => {
  step('refuses a key without the admin scope, plainly, and a wrong key', async () => {
    const reader = await admin('POST', '/admin/api-keys', { name: 'reader', plan: 'free', scopes: ['read'] });
    expect(reader.status).toBe(201);
    expectedStatuses = [401, 403];
    await open('/');
    await capture('sign-in');
    await signIn(reader.body.key);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'This key does not have the admin scope: the console needs an admin key.',
    );
    await signIn('psk_not_a_key_of_this_service_000000000');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Check the key and try again\.$/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  step('shows when to try again after a 429, and sends nothing before then', async () => {
    const limited = await admin('POST', '/admin/api-keys', { name: 'limited admin', plan: 'free', scopes: ['admin'] });
    expect(limited.status).toBe(201);
    let status = 0;
    for (let i = 0; i < 100 && status !== 429; i++)
      status = (await apiCall('GET', '/admin/plans', limited.body.key)).status;
    expect(status).toBe(429);
    expectedStatuses = [429];
    await open('/');
    const sent: string[] = [];
    const record = (request: { url(): string }) => void sent.push(request.url());
    page.on('request', record);
    await signIn(limited.body.key);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Try again in \d+ s \(at .+\)\.$/);
    // A second try before Retry-After has passed is refused by the console itself, not sent.
    await signIn(ADMIN_KEY);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /asked the console to wait\. Try again in \d+ s/,
    );
    page.off('request', record);
    expect(sent.filter((url) => url.includes('/admin/'))).toHaveLength(1);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  step('signs in with the admin key, kept in sessionStorage only, and opens a deep link', async () => {
    await open('/');
    await signIn(ADMIN_KEY);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.locator('figcaption').first().waitFor();
    await settled();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([ADMIN_KEY]);
    expect(await context.cookies()).toEqual([]);
    await open('/plans');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Plans');
    await page.getByText('Read by this instance').waitFor();
    await capture('plans');
  });

  let issued: { id: number; secret: string };

  step('issues a key whose shown secret works against the API', async () => {
    issued = await issueKey('browser key');
    expect((await apiCall('GET', '/pets', issued.secret)).status).toBe(200);
    await capture('keys');
  });

  step('edits its plan, and its live windows change', async () => {
    await open(`/keys/${issued.id}`);
    await page.getByText('minute').first().waitFor();
    expect(await windowLimits()).toEqual(['minute:60', 'day:1,000']);
    await page.getByLabel('Plan', { exact: true }).selectOption('pro');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.getByText('The key is saved.').waitFor();
    await eventually(async () => (await windowLimits()).join() === 'minute:300,day:10,000');
    expect((await admin('GET', `/admin/api-keys/${issued.id}`)).body.plan).toBe('pro');
    await capture('key-detail');
  });

  step('rolls it: the new secret works, and the previous one during the overlap', async () => {
    await page.getByLabel('Overlap (seconds the previous secret keeps working)').fill('600');
    await page.getByRole('button', { name: 'Roll the key' }).click();
    const rolled = await shownSecret();
    expect(rolled).not.toBe(issued.secret);
    expect((await apiCall('GET', '/pets', rolled)).status).toBe(200);
    expect((await apiCall('GET', '/pets', issued.secret)).status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await settled();
    await page.reload();
    await page.getByText(/The previous secret works until/).waitFor();
    issued = { ...issued, secret: rolled };
  });

  step('revokes it after a confirmation that names it', async () => {
    await page.getByRole('button', { name: 'Revoke the key…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the key “browser key”?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke “browser key”' }).click();
    await page.getByText('The key is revoked.').waitFor();
    expect((await apiCall('GET', '/pets', issued.secret)).status).toBe(401);
  });

  step('shows the audit entries of all of that', async () => {
    await open('/audit');
    await page.getByLabel('Target type').selectOption('api_key');
    await page.getByLabel('Target id').fill(String(issued.id));
    await page.getByRole('button', { name: 'Filter' }).click();
    const actions = page.getByRole('region', { name: 'Audit log entries, newest first' }).locator('tbody td.mono');
    await eventually(async () => (await actions.count()) === 4);
    expect(await actions.allTextContents()).toEqual([
      'api_key.revoked',
      'api_key.rolled',
      'api_key.updated',
      'api_key.created',
    ]);
    await capture('audit');
  });

  step('shows a key banned for ignoring 429s, and lifts the ban', async () => {
    const flooder = await admin('POST', '/admin/api-keys', { name: 'flooder', plan: 'free', scopes: ['read'] });
    let last = 0;
    let code = '';
    for (let i = 0; i < 400 && code !== 'API_KEY_BANNED'; i++) {
      const answer = await apiCall('GET', '/pets', flooder.body.key);
      last = answer.status;
      code = answer.body?.code ?? '';
    }
    expect({ last, code }).toEqual({ last: 429, code: 'API_KEY_BANNED' });
    await open('/bans');
    const lift = page.getByRole('button', { name: `Lift the ban of key ${flooder.body.id}` });
    await lift.waitFor();
    await capture('bans');
    await lift.click();
    await page.getByText(`The ban of key ${flooder.body.id} is lifted.`).waitFor();
    await page.getByText('Nobody is banned now.').waitFor();
    expect((await apiCall('GET', '/pets', flooder.body.key)).body?.code).not.toBe('API_KEY_BANNED');
  });

  step('draws the overview chart from real usage', async () => {
    const today = new Date().toISOString().slice(0, 10);
    let used = 0;
    await eventually(async () => {
      const rows = (await admin('GET', `/admin/usage?from=${today}&to=${today}`)).body as { requests: number }[];
      used = rows.reduce((sum, row) => sum + row.requests, 0);
      return used >= 60 + 2; // the flooder's minute, and the browser key's requests
    });
    await open('/');
    const caption = page.locator('figcaption').first();
    await caption.waitFor();
    const shown = Number(/(\d[\d,]*) requests/.exec((await caption.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
    expect(shown).toBeGreaterThanOrEqual(used);
    expect(await page.locator('.chart-canvas canvas').count()).toBe(1);
    // Drawn: the canvas has pixels that are not the background.
    const inked = await page.locator('.chart-canvas canvas').evaluate((element) => {
      const canvas = element as unknown as Canvas;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
      let count = 0;
      for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) count++;
      return count;
    });
    expect(inked).toBeGreaterThan(100);
    await capture('overview');
  });

  step('creates an account with two keys and shows their shared usage', async () => {
    await open('/accounts');
    await page.getByLabel('Name', { exact: true }).fill('Acme');
    await page.getByLabel(/^Plan/).selectOption('pro');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByText('Account Acme is created.').waitFor();
    await capture('accounts');
    const first = await issueKey('acme one', 'Acme');
    const second = await issueKey('acme two', 'Acme');
    for (let i = 0; i < 3; i++) expect((await apiCall('GET', '/pets', first.secret)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await apiCall('GET', '/pets', second.secret)).status).toBe(200);
    const account = (await admin('GET', `/admin/api-keys/${first.id}`)).body.accountId as number;
    await eventually(async () => {
      const days = (await admin('GET', `/admin/accounts/${account}/usage`)).body as { requests: number }[];
      return days.reduce((sum, day) => sum + day.requests, 0) === 5;
    });
    await open(`/accounts/${account}`);
    const keys = page.getByRole('region', { name: 'API keys' }).getByRole('link');
    expect((await keys.allTextContents()).filter((text) => text.startsWith('acme')).sort()).toEqual([
      'acme one',
      'acme two',
    ]);
    await expect(page.locator('figcaption').textContent()).resolves.toMatch(/^Account Acme: 5 requests, 0 refused$/);
    await capture('account-detail');
  });

  step('works with the keyboard alone', async () => {
    await open('/');
    /** Presses Tab until the focused element's text is `text`. */
    const tabTo = async (text: string) => {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const active = (
            globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }
          ).document.activeElement;
          return active?.textContent?.trim() ?? '';
        });
        if (focused === text) return;
      }
      throw new Error(`Tab never reached "${text}"`);
    };
    await tabTo('Keys');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await settled();
    await page.getByLabel(/^Search keys/).focus();
    await page.keyboard.type('acme');
    await page.getByText(/^2 of \d+ keys$/).waitFor();
    await tabTo('acme one');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /^Key \d+$/ }).waitFor();
    await settled();
    await tabTo('Revoke the key…');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    // The dialog opens on its safe choice, and Escape leaves the key as it was.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect(page.locator('.lead .state').textContent()).resolves.toBe('active');
  });

  step('signs out: the key is forgotten', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});
