import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook as Verifier } from 'standardwebhooks';
import request from 'supertest';
import { eventually } from './support/eventually.js';
import { type FeedEvent, KEY } from './support/http.js';
import { createCategory, issueStoreKey, putStock, type StoreKey, stockedPet } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { type Receiver, type ReceivedMessage, startReceiver } from './support/webhook-receiver.mjs';

const ALL_TYPES = ['order.placed', 'order.completed', 'order.cancelled', 'inventory.changed', 'pet.status_changed'];
/** The feed of the types the endpoints below subscribe to: creating the pet and category adds catalogue events. */
const SUBSCRIBED = `limit=3&${ALL_TYPES.map((type) => `type=${type}`).join('&')}`;
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

/**
 * Webhooks and the event feed over HTTP, with a real receiver: each event reaches
 * every endpoint due to receive it once, signed so that the `standardwebhooks`
 * package verifies it; the feed pages through the same events; a key never sees
 * another key's order events; refused targets and the endpoint limit answer 4xx.
 */
describe('webhooks and the event feed (e2e)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: StoreKey;
  let alice: StoreKey;
  let bob: StoreKey;
  let categoryId: number;
  const failuresLeft = new Map<string, number>();
  /** Paths answered with this status, always. */
  const answers = new Map<string, number>();

  beforeAll(async () => {
    receiver = await startReceiver((m) => {
      const always = answers.get(m.path);
      if (always !== undefined) return always;
      const left = failuresLeft.get(m.path) ?? 0;
      if (left <= 0) return 204;
      failuresLeft.set(m.path, left - 1);
      return 500;
    });
    t = await createTestApp({
      WEBHOOKS_DISPATCHER: 'true',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_ALLOWED_PORTS: 'any', // the receiver listens on a random port
      WEBHOOKS_SECRET_KEY: randomBytes(32).toString('base64'),
      WEBHOOKS_POLL_INTERVAL_MS: '50',
      WEBHOOKS_RETRY_BASE_MS: '100',
      WEBHOOKS_RETRY_MAX_MS: '400',
    });
    await t.reset();
    admin = await issueStoreKey(t, ['read', 'write', 'admin']);
    alice = await issueStoreKey(t, ['read', 'write']);
    bob = await issueStoreKey(t, ['read', 'write']);
    categoryId = await createCategory(t, admin.secret, 'Dogs');
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const register = (key: StoreKey, body: object) => request(t.http).post('/webhooks').set(KEY, key.secret).send(body);
  const at = (path: string) => receiver.received.filter((m) => m.path === path);

  function verified(m: ReceivedMessage, secret: string): FeedEvent {
    const headers = { 'webhook-id': m.id, 'webhook-timestamp': m.timestamp, 'webhook-signature': m.signature };
    return new Verifier(secret).verify(m.body, headers) as FeedEvent;
  }

  async function feed(key: StoreKey, query = 'limit=3'): Promise<FeedEvent[]> {
    const events: FeedEvent[] = [];
    let next: string | null = `/events?${query}`;
    while (next) {
      const res: request.Response = await request(t.http).get(next).set(KEY, key.secret).expect(200);
      events.push(...(res.body as FeedEvent[]));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1] ?? null;
    }
    return events;
  }

  describe('orders and stock, delivered and in the feed', () => {
    let aliceSecret: string;
    let bobSecret: string;

    beforeAll(async () => {
      const a = await register(alice, { url: `${receiver.url}/alice`, events: ALL_TYPES, description: 'alice' }).expect(
        201,
      );
      const b = await register(bob, { url: `${receiver.url}/bob`, events: ALL_TYPES }).expect(201);
      aliceSecret = a.body.secret;
      bobSecret = b.body.secret;

      const petId = await stockedPet(t, admin.secret, 3, { name: 'Rex', categoryId });
      const place = (quantity: number) =>
        request(t.http).post('/store/orders').set(KEY, alice.secret).send({ petId, quantity });
      const first = (await place(2).expect(201)).body.id;
      await place(5).expect(409); // refused: not enough stock, so no event
      await request(t.http).patch(`/store/orders/${first}`).set(KEY, alice.secret).send({ complete: true }).expect(200);
      const second = (await place(1).expect(201)).body.id; // the last unit: the pet turns pending
      await request(t.http).delete(`/store/orders/${second}`).set(KEY, alice.secret).expect(204);
      await putStock(t, admin.secret, petId, 10).expect(200);
    });

    it('shows the secret once, as whsec_…, and keeps it sealed in the database', async () => {
      expect(aliceSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const list = await request(t.http).get('/webhooks').set(KEY, alice.secret).expect(200);
      expect(list.body).toEqual([expect.objectContaining({ url: `${receiver.url}/alice`, enabled: true })]);
      expect(list.body[0]).not.toHaveProperty('secret');
      const [row] = await t.db.query(`SELECT secret_sealed FROM webhooks WHERE url = $1`, [`${receiver.url}/alice`]);
      expect(row.secret_sealed).not.toContain(aliceSecret.slice('whsec_'.length, 20));
    });

    it('writes exactly the events of the committed changes, in order (the refused order left none)', async () => {
      const rows: Array<{ type: string }> = await t.db.query(
        `SELECT type FROM events WHERE type = ANY($1) ORDER BY id`,
        [ALL_TYPES],
      );
      expect(rows.map((r) => r.type)).toEqual([
        'inventory.changed', // restock 0 → 3
        ...['inventory.changed', 'order.placed'], // 3 → 1
        'order.completed',
        ...['inventory.changed', 'pet.status_changed', 'order.placed'], // 1 → 0: pending
        ...['order.cancelled', 'inventory.changed', 'pet.status_changed'], // 0 → 1: available again
        'inventory.changed', // restock 1 → 10
      ]);
    });

    it("delivers each of alice's events to her endpoint once, signed, and the feed pages through the same ones", async () => {
      const all: Array<{ id: string }> = await t.db.query(`SELECT id FROM events WHERE type = ANY($1) ORDER BY id`, [
        ALL_TYPES,
      ]);
      await eventually(() => at('/alice').length >= all.length);
      const events = at('/alice').map((m) => verified(m, aliceSecret));
      const ids = events.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort((x, y) => x - y)).toEqual(all.map((r) => Number(r.id)));
      expect(at('/alice').map((m) => m.id)).toEqual(ids.map((id) => `evt_${id}`));
      expect(await feed(alice, SUBSCRIBED)).toEqual([...events].sort((x, y) => x.id - y.id));
    });

    it("never shows alice's order events to bob, on his endpoint or in his feed; admin keys see them", async () => {
      const catalogue: Array<{ id: string }> = await t.db.query(
        `SELECT id FROM events WHERE type NOT LIKE 'order.%' AND type = ANY($1) ORDER BY id`,
        [ALL_TYPES],
      );
      await eventually(() => at('/bob').length >= catalogue.length);
      const events = at('/bob').map((m) => verified(m, bobSecret));
      expect(events.map((e) => e.id).sort((x, y) => x - y)).toEqual(catalogue.map((r) => Number(r.id)));
      expect(events.filter((e) => e.type.startsWith('order.'))).toEqual([]);
      expect((await feed(bob, SUBSCRIBED)).map((e) => e.id)).toEqual(catalogue.map((r) => Number(r.id)));
      expect((await feed(admin)).filter((e) => e.type.startsWith('order.'))).toHaveLength(4);
    });

    it('sends and lists each event as the document describes its type (WebhookEvent, Event)', async () => {
      const doc = (await request(t.http).get('/openapi.json').expect(200)).body;
      const all: Array<{ id: string }> = await t.db.query(`SELECT id FROM events WHERE type = ANY($1)`, [ALL_TYPES]);
      await eventually(() => at('/alice').length >= all.length);
      const sent = at('/alice').map((m) => verified(m, aliceSecret));
      expect(new Set(sent.map((e) => e.type))).toEqual(new Set(ALL_TYPES));
      expect(sent.flatMap((e) => undocumented(doc, 'WebhookEvent', e))).toEqual([]);
      expect((await feed(admin)).flatMap((e) => undocumented(doc, 'Event', e))).toEqual([]);
    });

    it('filters the feed by type and resumes after an event id', async () => {
      const placed = await feed(alice, 'type=order.placed&type=order.cancelled');
      expect(placed.map((e) => e.type)).toEqual(['order.placed', 'order.placed', 'order.cancelled']);
      expect(placed[0].data).toEqual({ orderId: expect.any(Number), petId: expect.any(Number), quantity: 2 });
      const after = await feed(alice, `after=${placed[1].id}&limit=2`);
      expect(after[0].id).toBeGreaterThan(placed[1].id);
      expect(after.map((e) => e.id)).toEqual((await feed(alice)).filter((e) => e.id > placed[1].id).map((e) => e.id));
      await request(t.http).get('/events?type=order.unknown').set(KEY, alice.secret).expect(400);
    });
  });

  it('retries after the receiver answers 500 twice, with the same webhook-id, and lists the attempts', async () => {
    const hook = (await register(alice, { url: `${receiver.url}/flaky`, events: ['pet.status_changed'] }).expect(201))
      .body;
    failuresLeft.set('/flaky', 2);
    const petId = await stockedPet(t, admin.secret, 1, { name: 'Tom', categoryId });
    await request(t.http).patch(`/pets/${petId}`).set(KEY, admin.secret).send({ status: 'sold' }).expect(200);
    await eventually(() => at('/flaky').length >= 3);
    const [first, second, third] = at('/flaky');
    expect(new Set([first.id, second.id, third.id]).size).toBe(1);
    const third_ = verified(third, hook.secret);
    expect(third_).toMatchObject({
      type: 'pet.status_changed',
      data: { petId, oldStatus: 'available', newStatus: 'sold' },
    });
    await eventually(async () => {
      const res = await request(t.http).get(`/webhooks/${hook.id}/deliveries`).set(KEY, alice.secret).expect(200);
      return res.body[0]?.status === 'delivered';
    });
    const [delivery] = (await request(t.http).get(`/webhooks/${hook.id}/deliveries`).set(KEY, alice.secret)).body;
    expect(delivery).toMatchObject({
      eventId: third_.id,
      eventType: 'pet.status_changed',
      attempts: 3,
      statusCode: 204,
    });

    await request(t.http)
      .post(`/webhooks/${hook.id}/deliveries/${delivery.id}/retry`)
      .set(KEY, alice.secret)
      .expect(202);
    await eventually(() => at('/flaky').length >= 4);
    expect(at('/flaky')[3].id).toBe(first.id);
    await request(t.http).post(`/webhooks/${hook.id}/deliveries/${delivery.id}/retry`).set(KEY, bob.secret).expect(404);
    await request(t.http).post(`/webhooks/${hook.id}/deliveries/999999/retry`).set(KEY, alice.secret).expect(404);
  });

  it('sends a signed ping on POST /webhooks/{id}/test', async () => {
    const hook = (await register(alice, { url: `${receiver.url}/ping`, events: ['order.placed'] }).expect(201)).body;
    const res = await request(t.http).post(`/webhooks/${hook.id}/test`).set(KEY, alice.secret).expect(202);
    expect(res.body).toMatchObject({ eventType: 'ping', status: 'pending', attempts: 0 });
    await eventually(() => at('/ping').length >= 1);
    const ping = verified(at('/ping')[0], hook.secret);
    expect(ping).toMatchObject({ type: 'ping', data: { webhookId: hook.id } });
    const doc = (await request(t.http).get('/openapi.json').expect(200)).body;
    expect(undocumented(doc, 'WebhookEvent', ping)).toEqual([]);
  });

  it("answers 404 WEBHOOK_NOT_FOUND for another key's endpoint, whatever the operation", async () => {
    const hook = (await register(alice, { url: `${receiver.url}/mine`, events: ['order.placed'] }).expect(201)).body;
    const asBob = [
      request(t.http).get(`/webhooks/${hook.id}`),
      request(t.http).patch(`/webhooks/${hook.id}`).send({ enabled: false }),
      request(t.http).delete(`/webhooks/${hook.id}`),
      request(t.http).post(`/webhooks/${hook.id}/test`),
      request(t.http).get(`/webhooks/${hook.id}/deliveries`),
    ];
    for (const req of asBob)
      expect((await req.set(KEY, bob.secret).expect(404)).body).toEqual(errorBody('WEBHOOK_NOT_FOUND', 404));
    await request(t.http).get(`/webhooks/${hook.id}`).set(KEY, alice.secret).expect(200);
    const paused = await request(t.http).patch(`/webhooks/${hook.id}`).set(KEY, alice.secret).send({ enabled: false });
    expect(paused.body).toMatchObject({ enabled: false, disabledReason: 'disabled by its owner' });
    const resumed = await request(t.http).patch(`/webhooks/${hook.id}`).set(KEY, alice.secret).send({ enabled: true });
    expect(resumed.body).toMatchObject({ enabled: true });
    expect(resumed.body).not.toHaveProperty('disabledReason');
    await request(t.http).delete(`/webhooks/${hook.id}`).set(KEY, alice.secret).expect(204);
    await request(t.http).get(`/webhooks/${hook.id}`).set(KEY, alice.secret).expect(404);
  });

  it('allows at most 10 endpoints per key', async () => {
    const carol = await issueStoreKey(t, ['read', 'write']);
    for (let i = 0; i < 10; i++)
      await register(carol, { url: `${receiver.url}/c${i}`, events: ['order.placed'] }).expect(201);
    expect((await register(carol, { url: `${receiver.url}/c10`, events: ['order.placed'] }).expect(409)).body).toEqual(
      errorBody('WEBHOOK_LIMIT_REACHED', 409),
    );
  });

  it('validates the body and needs the write scope', async () => {
    await register(alice, { url: `${receiver.url}/x`, events: [] }).expect(400);
    await register(alice, { url: `${receiver.url}/x`, events: ['order.shipped'] }).expect(400);
    await register(alice, { url: `${receiver.url}/x`, events: ['order.placed'], extra: 1 }).expect(400);
    const reader = await issueStoreKey(t, ['read']);
    await register(reader, { url: `${receiver.url}/x`, events: ['order.placed'] }).expect(403);
  });

  describe('endpoints that stop receiving', () => {
    let petId: number;
    const restock = (quantity: number) => putStock(t, admin.secret, petId, quantity).expect(200);
    const deliveryRows = (hookId: number): Promise<Array<{ status: string; job_id: string | null }>> =>
      t.db.query(`SELECT status, job_id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id`, [hookId]);

    beforeAll(async () => {
      petId = await stockedPet(t, admin.secret, 1, { name: 'Stopper', categoryId });
    });

    it('disables an endpoint that answers 410 Gone, with the reason, and sends it nothing more', async () => {
      answers.set('/gone', 410);
      const hook = (await register(alice, { url: `${receiver.url}/gone`, events: ['inventory.changed'] }).expect(201))
        .body;
      for (const quantity of [11, 12, 13]) await restock(quantity);
      await eventually(async () => {
        const res = await request(t.http).get(`/webhooks/${hook.id}`).set(KEY, alice.secret).expect(200);
        return res.body.enabled === false;
      });
      const res = await request(t.http).get(`/webhooks/${hook.id}`).set(KEY, alice.secret).expect(200);
      expect(res.body).toMatchObject({ enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
      await eventually(async () => (await deliveryRows(hook.id)).every((d) => d.status !== 'pending'));
      await restock(14);
      await sleep(500); // a delivery of that change would have been relayed and sent by now
      expect(at('/gone')).toHaveLength(1);
      const statuses = (await request(t.http).get(`/webhooks/${hook.id}/deliveries`).set(KEY, alice.secret)).body.map(
        (d: { status: string }) => d.status,
      );
      // The one that got the 410 failed (workers fetching at once may take any of the three first), the rest cancelled.
      expect(statuses.filter((s: string) => s === 'failed')).toHaveLength(1);
      expect(statuses.filter((s: string) => s === 'cancelled')).toHaveLength(statuses.length - 1);
    });

    it("sends a revoked key's endpoints nothing more and cancels their queued deliveries", async () => {
      answers.set('/revoked', 503); // keeps the deliveries pending, retried
      const dave = await issueStoreKey(t, ['read', 'write']);
      const hook = (await register(dave, { url: `${receiver.url}/revoked`, events: ['inventory.changed'] }).expect(201))
        .body;
      for (const quantity of [21, 22, 23]) await restock(quantity);
      await eventually(() => at('/revoked').length >= 1);
      await request(t.http).delete(`/admin/api-keys/${dave.id}`).set(KEY, admin.secret).expect(204);
      await eventually(async () => (await deliveryRows(hook.id)).every((d) => d.status === 'cancelled'));
      await sleep(200); // an attempt already under way at the revocation may still land
      const sent = at('/revoked').length;
      const rows = await deliveryRows(hook.id);
      await restock(24);
      await sleep(1_000); // the retries (100–400 ms apart) and a new event's delivery would have come by now
      expect(at('/revoked')).toHaveLength(sent);
      expect(await deliveryRows(hook.id)).toEqual(rows); // the new event made no delivery either
      // A delivery parked while its endpoint backed off has no job; every other one's job is cancelled.
      const jobIds = rows.flatMap((r) => (r.job_id ? [r.job_id] : []));
      expect(jobIds.length).toBeGreaterThan(0);
      const jobs: Array<{ state: string }> = await t.db.query(`SELECT state FROM pgboss.job WHERE id = ANY($1)`, [
        jobIds,
      ]);
      expect(jobs.map((j) => j.state)).toEqual(jobIds.map(() => 'cancelled'));
    });

    it("drops a deleted endpoint's queued jobs and sends it nothing more", async () => {
      answers.set('/deleted', 500);
      const hook = (
        await register(alice, { url: `${receiver.url}/deleted`, events: ['inventory.changed'] }).expect(201)
      ).body;
      for (const quantity of [31, 32]) await restock(quantity);
      await eventually(() => at('/deleted').length >= 1);
      const ids: Array<{ id: string }> = await t.db.query(`SELECT id FROM webhook_deliveries WHERE webhook_id = $1`, [
        hook.id,
      ]);
      await request(t.http).delete(`/webhooks/${hook.id}`).set(KEY, alice.secret).expect(204);
      const queued: Array<{ count: number }> = await t.db.query(
        `SELECT count(*)::int AS count FROM pgboss.job
         WHERE name = 'webhook-delivery' AND data->>'deliveryId' = ANY($1) AND state IN ('created', 'retry')`,
        [ids.map((r) => r.id)],
      );
      expect(queued[0].count).toBe(0); // right after the DELETE: its jobs were cancelled, not left to run
      await sleep(200); // an attempt already under way when the endpoint went may still land
      const sent = at('/deleted').length;
      await sleep(1_000);
      expect(at('/deleted')).toHaveLength(sent);
      expect(ids.length).toBeGreaterThan(0);
    });
  });

  describe('with the production defaults (https only, public targets only)', () => {
    let strict: TestApp;

    beforeAll(async () => {
      strict = await createTestApp({
        WEBHOOKS_DISPATCHER: 'false',
        WEBHOOKS_SECRET_KEY: randomBytes(32).toString('base64'),
      });
    });
    afterAll(() => strict.close());

    it.each([
      ['http', 'http://example.com/hook'],
      ['loopback', 'https://127.0.0.1/hook'],
      ['loopback by name', 'https://localhost/hook'],
      ['loopback as one number', 'https://2130706433/hook'],
      ['IPv6 loopback', 'https://[::1]/hook'],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
      ['private', 'https://10.1.2.3/hook'],
      ['private 192.168', 'https://192.168.0.10/hook'],
      ['link-local metadata', 'https://169.254.169.254/latest/meta-data'],
      ['unique local IPv6', 'https://[fd00:ec2::254]/'],
      ['credentials', 'https://user:pw@8.8.8.8/hook'],
      ['not a URL', 'hook'],
      ['a name that public DNS never serves', 'https://no-such-host.invalid/hook'],
      ['a port other than 443', 'https://example.com:8443/hook'],
    ])('refuses %s with 422 WEBHOOK_TARGET_NOT_ALLOWED', async (_name, url) => {
      const res = await request(strict.http)
        .post('/webhooks')
        .set(KEY, alice.secret)
        .send({ url, events: ['order.placed'] });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(errorBody('WEBHOOK_TARGET_NOT_ALLOWED', 422));
    });

    it('accepts a name without resolving it: a receiver may not be in DNS yet (deliveries check its addresses)', async () => {
      const dave = await issueStoreKey(t, ['read', 'write']);
      await request(strict.http)
        .post('/webhooks')
        .set(KEY, dave.secret)
        .send({ url: 'https://not-in-dns-yet.example.com/hook', events: ['order.placed'] })
        .expect(201);
    });

    it('refuses a PATCH to a private URL too', async () => {
      const hook = (await register(alice, { url: `${receiver.url}/patch`, events: ['order.placed'] }).expect(201)).body;
      await request(strict.http)
        .patch(`/webhooks/${hook.id}`)
        .set(KEY, alice.secret)
        .send({ url: 'https://127.0.0.1/' })
        .expect(422);
    });
  });
});

/**
 * Where a message departs from the schema its `type` maps to in `union`, a discriminated
 * `oneOf` of the served document: a missing or undeclared field, a wrong type or value.
 */
function undocumented(doc: Record<string, any>, union: string, message: object): string[] {
  const named = (ref: string) => doc.components.schemas[ref.slice('#/components/schemas/'.length)];
  const check = (value: unknown, schema: Record<string, any>, at: string): string[] => {
    if (schema.$ref) return check(value, named(schema.$ref), at);
    if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not in its enum`];
    if (schema.type !== 'object') {
      const ok = schema.type === 'integer' ? Number.isInteger(value) : typeof value === schema.type;
      return ok ? [] : [`${at}: ${JSON.stringify(value)} is not ${schema.type}`];
    }
    if (typeof value !== 'object' || value === null) return [`${at}: not an object`];
    const missing: string[] = (schema.required ?? []).filter((field: string) => !(field in value));
    return [
      ...missing.map((field) => `${at}.${field}: missing`),
      ...Object.entries(value).flatMap(([field, v]) =>
        schema.properties[field]
          ? check(v, schema.properties[field], `${at}.${field}`)
          : [`${at}.${field}: undeclared`],
      ),
    ];
  };
  const { type } = message as { type: string };
  const ref: string | undefined = doc.components.schemas[union].discriminator.mapping[type];
  return ref ? check(message, { $ref: ref }, type) : [`${type}: not in the mapping of ${union}`];
}
