import { createCipheriv, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { Webhook as Verifier } from 'standardwebhooks';
import { eventually } from './support/eventually.js';
import { ENTRY, type ServiceProcess } from './support/spawn-service.mjs';
import { WebhookServices } from './support/webhook-services.js';

const ORDERS = 200;
const TIMEOUT_MS = 2_000;

/** What each of the 20 endpoints does; `healthy` ones must get every event. */
const KINDS = [
  ...Array.from({ length: 12 }, () => 'fast'),
  ...['slow', 'slow', 'slow'], // 100 ms per answer
  'failing', // 500, always
  'throttled', // 503 with Retry-After: 1, always
  ...['hanging', 'hanging'], // never answers: every attempt runs into the timeout
  'broken-secret', // its sealed secret was sealed with another key: it cannot be opened
] as const;
type Kind = (typeof KINDS)[number];
const healthy = (kind: Kind) => kind === 'fast' || kind === 'slow';

interface Received {
  endpoint: number;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** One HTTP server for all endpoints (`/<index>`), answering as the endpoint's kind says. */
async function startReceivers() {
  const received: Received[] = [];
  /** Requests each endpoint is answering now, and the most it ever answered at once. */
  const inFlight = KINDS.map(() => 0);
  const mostAtOnce = KINDS.map(() => 0);
  const server = createServer((req, res) => {
    const endpoint = Number(req.url?.slice(1));
    const kind = KINDS[endpoint];
    inFlight[endpoint]++;
    mostAtOnce[endpoint] = Math.max(mostAtOnce[endpoint], inFlight[endpoint]);
    res.once('close', () => inFlight[endpoint]--); // answered, or the sender gave up and closed the connection
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (kind === 'hanging') return; // never answers
      const header = (name: string) => String(req.headers[name] ?? '');
      received.push({
        endpoint,
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        body,
      });
      const answer = () => {
        if (kind === 'failing') res.statusCode = 500;
        else if (kind === 'throttled') res.writeHead(503, { 'Retry-After': '1' });
        else res.statusCode = 204;
        res.end();
      };
      if (kind === 'slow') setTimeout(answer, 100);
      else answer();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}`, received, mostAtOnce };
}

/** A secret sealed as the service seals them, but under another key (replicas with different keys). */
function sealedUnderAnotherKey(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', randomBytes(32), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/**
 * The delivery engine under a mix of receivers, on PostgreSQL, with two service
 * processes of which one is killed with SIGKILL half way and restarted: 20
 * endpoints (fast, slow, failing with 5xx, hanging past the timeout, one whose
 * secret cannot be opened) and 200 orders. Every healthy endpoint gets every
 * event, each signature verifies with `standardwebhooks`, a duplicate always
 * carries the same `webhook-id`, and the healthy endpoints are done while the
 * hanging ones are still timing out.
 */
describe('webhook delivery under bad receivers and a crash (slow)', () => {
  const services = new WebhookServices('petstore_webhooks_delivery');
  const env = { WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS) };
  let receivers: Awaited<ReturnType<typeof startReceivers>>;

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\``);
    receivers = await startReceivers();
    await services.createDatabase();
  });
  afterAll(async () => {
    await services.stopAll();
    receivers.server.closeAllConnections();
    await new Promise((done) => receivers.server.close(done));
  });

  it('delivers every event to every healthy endpoint, signed, while the bad ones fail on their own', async () => {
    const a = await services.start('a', env);
    let b: ServiceProcess = await services.start('b', env);
    // Ten endpoints per key: a second admin key holds the other ten (admin keys see every order's events).
    const second = await services.call(a, 'POST', '/admin/api-keys', {
      name: 'second',
      plan: 'free',
      scopes: ['read', 'write', 'admin'],
    });
    expect(second.status).toBe(201);
    const keys = [services.adminKey, second.body.key as string];
    const endpoints: Array<{ id: number; secret: string; kind: Kind }> = [];
    for (const [index, kind] of KINDS.entries()) {
      const res = await services.call(
        a,
        'POST',
        '/webhooks',
        { url: `${receivers.url}/${index}`, events: ['order.placed'] },
        keys[index % 2],
      );
      if (res.status !== 201) throw new Error(`endpoint ${index}: ${res.status} ${JSON.stringify(res.body)}`);
      endpoints.push({ id: res.body.id, secret: res.body.secret, kind });
    }
    const broken = endpoints.find((e) => e.kind === 'broken-secret')!;
    await services.query(`UPDATE webhooks SET secret_sealed = $2 WHERE id = $1`, [
      broken.id,
      sealedUnderAnotherKey(broken.secret),
    ]);

    const category = await services.call(a, 'POST', '/categories', { name: 'Birds' });
    const pet = await services.call(a, 'POST', '/pets', { name: 'Tweety', categoryId: category.body.id });
    expect((await services.call(a, 'PUT', `/store/inventory/${pet.body.id}`, { quantity: ORDERS })).status).toBe(200);
    const started = Date.now();
    const place = async (service: ServiceProcess, count: number) => {
      for (let i = 0; i < count; i++) {
        const order = await services.call(service, 'POST', '/store/orders', { petId: pet.body.id, quantity: 1 });
        expect(order.status).toBe(201);
      }
    };
    // Half the orders through both instances, then b is killed mid-delivery and started again.
    await Promise.all([place(a, ORDERS / 4), place(b, ORDERS / 4)]);
    b.child.kill('SIGKILL');
    await b.exited;
    const [{ pendingAtKill }] = await services.query<{ pendingAtKill: number }>(
      `SELECT count(*)::int AS "pendingAtKill" FROM webhook_deliveries WHERE status = 'pending'`,
    );
    b = await services.start('b2', env);
    await Promise.all([place(a, ORDERS / 4), place(b, ORDERS / 4)]);

    const events = (await services.query<{ id: string }>(`SELECT id FROM events WHERE type = 'order.placed'`)).map(
      (r) => Number(r.id),
    );
    expect(events).toHaveLength(ORDERS);
    const healthyEndpoints = endpoints.map((e, index) => ({ ...e, index })).filter((e) => healthy(e.kind));
    const missing = () =>
      healthyEndpoints.reduce((sum, e) => {
        const got = new Set(receivers.received.filter((m) => m.endpoint === e.index).map((m) => m.id));
        return sum + events.filter((id) => !got.has(`evt_${id}`)).length;
      }, 0);
    await eventually(() => missing() === 0, 100_000);
    const drainMs = Date.now() - started;

    // The hanging endpoints are still being tried (and timing out) now that the healthy ones are done.
    const hangingIds = endpoints.filter((e) => e.kind === 'hanging').map((e) => e.id);
    const [hanging] = await services.query<{ pending: number; timed_out: number }>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE last_error LIKE 'timed out%')::int AS timed_out
       FROM webhook_deliveries WHERE webhook_id = ANY($1)`,
      [hangingIds],
    );
    expect(hanging.pending).toBeGreaterThan(ORDERS); // of 2 × 200: most are still to go
    expect(hanging.timed_out).toBeGreaterThan(0);

    // Every message that arrived anywhere verifies with its endpoint's secret and names its event.
    const duplicatesByEndpoint = new Map<number, number>();
    for (const m of receivers.received) {
      const event = new Verifier(endpoints[m.endpoint].secret).verify(m.body, {
        'webhook-id': m.id,
        'webhook-timestamp': m.timestamp,
        'webhook-signature': m.signature,
      }) as { id: number };
      expect(m.id).toBe(`evt_${event.id}`); // so a duplicate of an event always carries the same webhook-id
    }
    for (const e of healthyEndpoints) {
      const ids = receivers.received.filter((m) => m.endpoint === e.index).map((m) => m.id);
      duplicatesByEndpoint.set(e.index, ids.length - new Set(ids).size);
    }
    const healthyDeliveries = receivers.received.filter((m) => healthy(KINDS[m.endpoint])).length;
    const duplicates = [...duplicatesByEndpoint.values()].reduce((x, y) => x + y, 0);

    // The endpoint whose secret cannot be opened got nothing, and says why.
    expect(receivers.received.filter((m) => m.endpoint === endpoints.indexOf(broken))).toEqual([]);
    const [brokenRow] = await services.query<{ last_error: string | null }>(
      `SELECT last_error FROM webhook_deliveries WHERE webhook_id = $1 AND attempts > 0 LIMIT 1`,
      [broken.id],
    );
    expect(brokenRow.last_error).toBe('the signing secret cannot be opened');
    // The throttled endpoint was retried no sooner than its Retry-After asked (1 s), message by message.
    const throttled = KINDS.indexOf('throttled');
    const [firstThrottled] = receivers.received.filter((m) => m.endpoint === throttled);
    const again = receivers.received.filter((m) => m.endpoint === throttled && m.id === firstThrottled.id);
    expect(again.length).toBeGreaterThan(1);
    expect(Number(again[1].timestamp) - Number(again[0].timestamp)).toBeGreaterThanOrEqual(1);

    console.log(
      `webhooks delivery test: ${events.length} events × ${healthyEndpoints.length} healthy endpoints = ` +
        `${events.length * healthyEndpoints.length} due; ${healthyDeliveries} deliveries received, ` +
        `${duplicates} duplicates (same webhook-id); ${pendingAtKill} pending at the SIGKILL; ` +
        `drained in ${(drainMs / 1000).toFixed(1)} s from the first order; hanging endpoints still at ` +
        `${hanging.pending} pending; ${receivers.received.length} requests answered in all; most requests at once ` +
        `per endpoint: ${receivers.mostAtOnce.join(' ')}`,
    );
    expect(missing()).toBe(0);
    // WEBHOOKS_ENDPOINT_CONCURRENCY (default 1): never two requests at once at a healthy endpoint.
    expect(Math.max(...healthyEndpoints.map((e) => receivers.mostAtOnce[e.index]))).toBe(1);
  }, 150_000);
});
