import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { eventually } from './support/eventually.js';
import { ENTRY } from './support/spawn-service.mjs';
import { type Receiver, startReceiver } from './support/webhook-receiver.mjs';
import { WebhookServices } from './support/webhook-services.js';

const EVENTS = 8;
const HANGING = 4;
const WORKERS = 2;
const TIMEOUT_MS = 1_000;
/**
 * The healthy endpoints' bound. Were the hanging endpoints' queued deliveries each
 * to take a worker for the timeout, the last event would wait for the
 * (EVENTS − 1) · HANGING = 28 attempts queued before it: 14 s at least on 2
 * workers (16.8 s measured without endpoint backoff). With it, each hanging
 * endpoint holds a worker once per retry period: about 4.5 s measured (the first
 * attempts of the 4 hanging endpoints alone take 2 s, and idle pg-boss workers
 * poll every 0.5 s).
 */
const HEALTHY_WITHIN_MS = 8_000;

/** A receiver that reads each request and never answers (the sender's deadline ends it). */
async function startHangingReceiver(): Promise<{ server: Server; url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((req) => {
    requests++;
    req.resume();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}`, requests: () => requests };
}

/**
 * Endpoint-level backoff: after a failed attempt an endpoint is not tried again
 * before that delivery's next attempt, and its other deliveries wait without
 * taking a worker. With 2 workers and 4 endpoints that never answer (1 s timeout,
 * retries a few seconds apart), the 2 healthy endpoints still get their 8 events
 * within 8 s, in order; the hanging endpoints' waiting deliveries count no attempt.
 * An endpoint that fails once gets all its events once it answers again.
 */
describe('webhook endpoints that hang back off (e2e)', () => {
  const services = new WebhookServices('petstore_webhook_backoff');
  let healthy: Receiver;
  let hanging: Awaited<ReturnType<typeof startHangingReceiver>>;

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\``);
    // `/flaky` fails its first request, then answers.
    let flakyFailed = false;
    healthy = await startReceiver((m) => {
      if (m.path !== '/flaky' || flakyFailed) return 204;
      flakyFailed = true;
      return 500;
    });
    hanging = await startHangingReceiver();
    await services.createDatabase();
  });
  afterAll(async () => {
    await services.stopAll();
    await healthy.close();
    hanging.server.closeAllConnections();
    await new Promise((done) => hanging.server.close(done));
  });

  it('delivers to the healthy endpoints while the hanging ones wait out their backoff', async () => {
    const service = await services.start('backoff', {
      WEBHOOKS_CONCURRENCY: String(WORKERS),
      WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOKS_RETRY_BASE_MS: '4000',
      WEBHOOKS_RETRY_MAX_MS: '30000',
    });
    const register = async (url: string) => {
      const res = await services.call(service, 'POST', '/webhooks', { url, events: ['inventory.changed'] });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    // The hanging endpoints first: their deliveries of each event are queued before the healthy ones'.
    const hangingIds: number[] = [];
    for (let i = 0; i < HANGING; i++) hangingIds.push(await register(`${hanging.url}/hang-${i}`));
    for (const name of ['a', 'b', 'flaky']) await register(`${healthy.url}/${name}`);
    const category = await services.call(service, 'POST', '/categories', { name: 'Fish' });
    const pet = await services.call(service, 'POST', '/pets', { name: 'Nemo', categoryId: category.body.id });

    const started = Date.now();
    for (let i = 0; i < EVENTS; i++) {
      const res = await services.call(service, 'PUT', `/store/inventory/${pet.body.id}`, { quantity: i + 1 });
      expect(res.status).toBe(200);
    }
    const events = (
      await services.query<{ id: string }>(`SELECT id FROM events WHERE type = 'inventory.changed' ORDER BY id`)
    ).map((r) => `evt_${r.id}`);
    expect(events).toHaveLength(EVENTS);
    const receivedBy = (path: string) => healthy.received.filter((m) => m.path === path).map((m) => m.id);
    const drainedMs = await eventually(
      () => receivedBy('/a').length >= EVENTS && receivedBy('/b').length >= EVENTS,
      30_000,
    ).then(() => Date.now() - started);

    const [attempts] = await services.query<{ attempted: number; waiting: number }>(
      `SELECT count(*) FILTER (WHERE attempts > 0)::int AS attempted,
              count(*) FILTER (WHERE attempts = 0 AND status = 'pending')::int AS waiting
       FROM webhook_deliveries WHERE webhook_id = ANY($1::bigint[])`,
      [hangingIds],
    );
    console.log(
      `webhook backoff test: ${HANGING} hanging endpoints × ${EVENTS} events, ${WORKERS} workers, ` +
        `${TIMEOUT_MS} ms timeout: the healthy endpoints had all ${EVENTS} events ${drainedMs} ms after the first; ` +
        `${hanging.requests()} requests to the hanging ones by then (${attempts.attempted} deliveries attempted, ` +
        `${attempts.waiting} waiting without an attempt)`,
    );
    expect(drainedMs).toBeLessThan(HEALTHY_WITHIN_MS);
    // In order, each once: a healthy endpoint is never held up by its own retries.
    expect(receivedBy('/a')).toEqual(events);
    expect(receivedBy('/b')).toEqual(events);
    // The hanging endpoints' queued deliveries waited: no attempt was spent on most of them.
    expect(attempts.waiting).toBeGreaterThan(0);
    // An endpoint that answers again gets the deliveries that waited for it (in what order: after a failure,
    // as it comes; the failed one is retried later).
    const flakyMs = await eventually(() => new Set(receivedBy('/flaky')).size >= EVENTS, 20_000);
    console.log(`the endpoint that failed once had all ${EVENTS} events ${flakyMs} ms later`);
    expect([...new Set(receivedBy('/flaky'))].sort()).toEqual([...events].sort());
  });
});
