import type { AddressInfo } from 'node:net';
import { Global, Module } from '@nestjs/common';
import { createPetstoreClient, isPetstoreError, type PetstoreClient } from '@petstore/client';
import { AppModule } from '../src/app.module.js';
import { Clock } from '../src/shared/clock.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { temporaryPlansFile } from './support/plans-file.js';

/**
 * @petstore/client against the real service: a free key whose plan allows 5 requests
 * a minute sends 3× that. The service's in-process counters run on a test clock that
 * the client's waits move forward, so a minute passes at once.
 */
const PER_MINUTE = 5;

/** Milliseconds the test clock is ahead of the real one. */
let offset = 0;
const testNow = (): number => Date.now() + offset;
const testClock: Clock = { now: () => new Date(testNow()) };

@Global()
@Module({ providers: [{ provide: Clock, useValue: testClock }], exports: [Clock] })
class TestClockModule {}

@Module({ imports: [AppModule.register(), TestClockModule] })
class AppOnTestClockModule {}

function plansFile(): string {
  return temporaryPlansFile(
    `plans:
  free: { perMinute: ${PER_MINUTE}, perDay: 1000 }
  pro: { perMinute: 300, perDay: 10000 }
  business: { perMinute: 1000, perDay: 100000 }
  enterprise: per-key
`,
  );
}

/** Spent windows (`RateLimit` r=0) as a response announced them: name → reset, on the test clock. */
function spentUntil(response: Response, receivedAt: number): number {
  let until = 0;
  for (const item of (response.headers.get('RateLimit') ?? '').split(',')) {
    const match = /r=(\d+);t=(\d+)/.exec(item);
    if (match && Number(match[1]) === 0) until = Math.max(until, receivedAt + Number(match[2]) * 1000);
  }
  return until;
}

interface Figures {
  logicalRequests: number;
  completed: number;
  sent: number;
  refused429: number;
  /** Requests sent while the last response said a window was spent. */
  sentIntoSpentWindow: number;
  waits: number;
  waitedSeconds: number;
  banned: boolean;
}

describe('@petstore/client against the service (e2e)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(
      { REDIS_URL: '', PLANS_FILE: plansFile(), PLANS_WATCH_INTERVAL_MS: '0' },
      { rootModule: AppOnTestClockModule },
    );
    await t.reset();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  /** A client of one key on the test clock, counting what it sends and what it is told. */
  function countedClient(apiKey: string, pacing = true) {
    const figures: Figures = {
      logicalRequests: 0,
      completed: 0,
      sent: 0,
      refused429: 0,
      sentIntoSpentWindow: 0,
      waits: 0,
      waitedSeconds: 0,
      banned: false,
    };
    let spent = 0;
    const client: PetstoreClient = createPetstoreClient({
      baseUrl: base,
      apiKey,
      pacing,
      now: testNow,
      sleep: async (ms, signal) => {
        signal?.throwIfAborted();
        figures.waits++;
        figures.waitedSeconds += ms / 1000;
        offset += ms;
      },
      fetch: async (request) => {
        figures.sent++;
        if (testNow() < spent) figures.sentIntoSpentWindow++;
        const response = await fetch(request);
        if (response.status === 429) figures.refused429++;
        spent = spentUntil(response, testNow());
        return response;
      },
    });
    return { client, figures };
  }

  it('paces a free key through 3× its per-minute quota: every request done, no 429, never banned; a naive loop is banned', async () => {
    const paced = countedClient(await t.key(['read'], 'free'));
    const logical = 3 * PER_MINUTE;
    for (let i = 0; i < logical; i++) {
      paced.figures.logicalRequests++;
      try {
        await paced.client.unwrap(paced.client.GET('/categories'));
        paced.figures.completed++;
      } catch (error) {
        if (isPetstoreError(error) && error.code === 'API_KEY_BANNED') paced.figures.banned = true;
        throw error;
      }
    }

    // Pacing off: the client still waits Retry-After after each 429, so it spends one request per window on it.
    const retrying = countedClient(await t.key(['read'], 'free'), false);
    for (let i = 0; i < logical; i++) {
      retrying.figures.logicalRequests++;
      await retrying.client.unwrap(retrying.client.GET('/categories'));
      retrying.figures.completed++;
    }

    // The same demand from another key of the same plan, retried at once after every 429.
    const naiveKey = await t.key(['read'], 'free');
    const naive: Figures = { ...paced.figures, logicalRequests: 0, completed: 0, sent: 0, refused429: 0 };
    Object.assign(naive, { sentIntoSpentWindow: 0, waits: 0, waitedSeconds: 0, banned: false });
    let spent = 0;
    loop: for (let i = 0; i < logical; i++) {
      naive.logicalRequests++;
      for (let tries = 0; tries < 100; tries++) {
        naive.sent++;
        if (testNow() < spent) naive.sentIntoSpentWindow++;
        const response = await fetch(`${base}/categories`, { headers: { 'X-API-Key': naiveKey } });
        spent = spentUntil(response, testNow());
        const body = (await response.json()) as { code?: string };
        if (response.ok) {
          naive.completed++;
          break;
        }
        if (response.status === 429) naive.refused429++;
        if (body.code === 'API_KEY_BANNED') {
          naive.banned = true;
          break loop;
        }
      }
    }

    console.log(
      [
        `Client contrast: a free key allowed ${PER_MINUTE} requests a minute, ${logical} logical requests each`,
        `  @petstore/client:              ${JSON.stringify(paced.figures)}`,
        `  @petstore/client, pacing off: ${JSON.stringify(retrying.figures)}`,
        `  naive loop:                    ${JSON.stringify(naive)}`,
      ].join('\n'),
    );
    expect(paced.figures).toMatchObject({ completed: logical, refused429: 0, sentIntoSpentWindow: 0, banned: false });
    expect(paced.figures.sent).toBe(logical);
    // It waited for two minute windows to reset, and not much more.
    expect(paced.figures.waits).toBe(2);
    expect(paced.figures.waitedSeconds).toBeGreaterThanOrEqual(2 * 59);
    expect(paced.figures.waitedSeconds).toBeLessThanOrEqual(2 * 61);
    // Without pacing: one 429 per spent window, each followed by a wait of Retry-After; never banned.
    expect(retrying.figures).toMatchObject({ completed: logical, refused429: 2, waits: 2, banned: false });
    expect(retrying.figures.sent).toBe(logical + 2);
    // The naive loop: 5 through, then 429s; the refusal past 3 × 5 within the minute is the ban.
    expect(naive).toMatchObject({ completed: PER_MINUTE, banned: true });
    expect(naive.refused429).toBe(3 * PER_MINUTE + 1);
    expect(naive.sentIntoSpentWindow).toBe(naive.refused429);
  });

  it('pages through a list by its Link headers, and reports a failure as a PetstoreError with its request id', async () => {
    const writer = createPetstoreClient({ baseUrl: base, apiKey: await t.key(['read', 'write'], 'enterprise') });
    const names = ['Birds', 'Cats', 'Dogs', 'Fish', 'Reptiles'];
    for (const name of names) await writer.unwrap(writer.POST('/categories', { body: { name } }));
    const seen: string[] = [];
    for await (const category of writer.paginate('/categories', { query: { limit: 2 } })) seen.push(category.name);
    expect(seen).toEqual(expect.arrayContaining(names));

    const error: unknown = await writer
      .unwrap(writer.GET('/categories/{categoryId}', { params: { path: { categoryId: 999_999 } } }))
      .catch((e: unknown) => e);
    if (!isPetstoreError(error, 'get', '/categories/{categoryId}'))
      throw new Error(`not a PetstoreError: ${String(error)}`);
    expect(error).toMatchObject({
      code: 'CATEGORY_NOT_FOUND',
      status: 404,
      message: 'Category 999999 does not exist',
      requestId: expect.any(String),
    });
    expect(error.rateLimit?.windows.map((w) => w.name)).toEqual(['minute', 'day']);
  });

  it('manages a key through the typed operations: detail, windows, roll (beta), and typed refusals', async () => {
    const admin = createPetstoreClient({
      baseUrl: base,
      apiKey: await t.key(['read', 'write', 'admin'], 'enterprise'),
    });
    const issued = await admin.unwrap(
      admin.POST('/admin/api-keys', {
        body: { name: 'client', plan: 'free', scopes: ['read'], allowedAddresses: ['127.0.0.1', '::1'] },
      }),
    );
    const path = { keyId: issued.id };
    const detail = await admin.unwrap(admin.GET('/admin/api-keys/{keyId}', { params: { path } }));
    expect(detail.allowedAddresses).toEqual(['127.0.0.1', '::1']);
    const windows = await admin.unwrap(admin.GET('/admin/api-keys/{keyId}/rate-limit', { params: { path } }));
    expect(windows.windows.map((w) => w.remaining)).toEqual([PER_MINUTE, 1000]);

    const rolled = await admin.unwrap(
      admin.POST('/admin/api-keys/{keyId}/roll', { params: { path }, body: { overlapSeconds: 60 } }),
    );
    expect(rolled.id).toBe(issued.id);
    const after = createPetstoreClient({ baseUrl: base, apiKey: rolled.key, pacing: false });
    await after.unwrap(after.GET('/categories'));
    // The test clock (which the service's key checks follow) passes the overlap at once.
    offset += 61_000;
    const before = createPetstoreClient({ baseUrl: base, apiKey: issued.key, pacing: false });
    const expired: unknown = await before.unwrap(before.GET('/categories')).catch((e: unknown) => e);
    if (!isPetstoreError(expired, 'get', '/categories')) throw new Error(`not a PetstoreError: ${String(expired)}`);
    expect(expired).toMatchObject({ code: 'API_KEY_EXPIRED', status: 401 });
    await after.unwrap(after.GET('/categories'));

    await admin.unwrap(
      admin.PATCH('/admin/api-keys/{keyId}', { params: { path }, body: { allowedAddresses: ['192.0.2.0/24'] } }),
    );
    const error: unknown = await after.unwrap(after.GET('/categories')).catch((e: unknown) => e);
    if (!isPetstoreError(error, 'get', '/categories')) throw new Error(`not a PetstoreError: ${String(error)}`);
    expect(error).toMatchObject({ code: 'API_KEY_ADDRESS_NOT_ALLOWED', status: 403 });
  });
});
