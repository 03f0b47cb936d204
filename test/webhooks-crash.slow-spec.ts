import { existsSync } from 'node:fs';
import { eventually } from './support/eventually.js';
import { ENTRY } from './support/spawn-service.mjs';
import { type Receiver, startReceiver } from './support/webhook-receiver.mjs';
import { tally, WebhookServices } from './support/webhook-services.js';

const ORDERS = 60;
const SUBSCRIBED = ['order.placed', 'inventory.changed', 'pet.status_changed'];

/**
 * At least once across a crash: the service (`node dist/petstore.cjs`, as `npm start` runs it) is killed
 * with SIGKILL while deliveries are pending and in flight, and started again on the
 * same database. Every event must reach the receiver (counted by event id); the
 * ones in flight at the kill may arrive twice, with the same webhook-id.
 */
describe('webhook delivery across a SIGKILL (e2e)', () => {
  const services = new WebhookServices('petstore_webhooks_crash');
  let receiver: Receiver;

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\``);
    receiver = await startReceiver(() => 204, { delayMs: 100 }); // slow, so deliveries queue up
    await services.createDatabase();
  });
  afterAll(async () => {
    await services.stopAll();
    await receiver.close();
  });

  it('delivers every event at least once after a restart on the same database', async () => {
    const first = await services.start('first');
    const hook = await services.call(first, 'POST', '/webhooks', {
      url: `${receiver.url}/crash`,
      events: SUBSCRIBED,
    });
    expect(hook.status).toBe(201);
    const category = await services.call(first, 'POST', '/categories', { name: 'Cats' });
    const pet = await services.call(first, 'POST', '/pets', { name: 'Tom', categoryId: category.body.id });
    expect((await services.call(first, 'PUT', `/store/inventory/${pet.body.id}`, { quantity: ORDERS })).status).toBe(
      200,
    );
    for (let i = 0; i < ORDERS; i++) {
      const order = await services.call(first, 'POST', '/store/orders', { petId: pet.body.id, quantity: 1 });
      expect(order.status).toBe(201);
    }
    await eventually(() => receiver.received.length >= 10, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const [{ pending }] = await services.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'pending'`,
    );
    const beforeRestart = receiver.received.length;

    await services.start('second');
    // The endpoint's types only: creating the category and the pet added catalogue events too.
    const events = (
      await services.query<{ id: string }>(`SELECT id FROM events WHERE type = ANY($1) ORDER BY id`, [SUBSCRIBED])
    ).map((r) => Number(r.id));
    await eventually(
      () =>
        tally(
          events,
          receiver.received.map((m) => m.id),
        ).losses === 0,
      60_000,
    );
    const counts = tally(
      events,
      receiver.received.map((m) => m.id),
    );
    console.log(
      `webhooks crash test: ${counts.events} events; ${beforeRestart} deliveries before SIGKILL with ${pending} pending; ` +
        `after restart ${counts.deliveries} deliveries, ${counts.distinct} distinct, ${counts.duplicates} duplicates, ${counts.losses} losses`,
    );
    expect(pending).toBeGreaterThan(0);
    expect(counts.events).toBe(2 * ORDERS + 2); // restock, then per order: stock change and placed; the last one empties it
    expect(counts.losses).toBe(0);
    expect(counts.distinct).toBe(counts.events);
  });
});
