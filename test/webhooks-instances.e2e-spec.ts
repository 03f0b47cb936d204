import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from './support/eventually.js';
import { ENTRY } from './support/spawn-service.mjs';
import { type Receiver, startReceiver } from './support/webhook-receiver.mjs';
import { tally, WebhookServices } from './support/webhook-services.js';

const EVENTS = 200;

/**
 * Two service processes on one PostgreSQL, both dispatching: 200 events reach one
 * receiver, none missing and none twice (the deliveries are claimed with
 * FOR UPDATE SKIP LOCKED, so the instances share the work without sending one
 * delivery twice).
 */
describe('webhook delivery by two instances on one database (e2e)', () => {
  const services = new WebhookServices('petstore_webhooks_pair');
  let receiver: Receiver;

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\``);
    receiver = await startReceiver(() => 204, { delayMs: 10 });
    await services.createDatabase();
  });
  afterAll(async () => {
    await services.stopAll();
    await receiver.close();
  });

  it('delivers 200 events once each', async () => {
    const a = await services.start('a');
    const b = await services.start('b');
    const hook = await services.call(a, 'POST', '/webhooks', {
      url: `${receiver.url}/pair`,
      events: ['inventory.changed'],
    });
    expect(hook.status).toBe(201);
    const category = await services.call(a, 'POST', '/categories', { name: 'Fish' });
    const pet = await services.call(a, 'POST', '/pets', { name: 'Nemo', categoryId: category.body.id });
    // Each PUT changes the stock by one unit: one inventory.changed per request, sent to both instances in turn.
    await Promise.all(
      [a, b].map(async (service, lane) => {
        for (let i = lane; i < EVENTS; i += 2) {
          const res = await services.call(service, 'PUT', `/store/inventory/${pet.body.id}`, { quantity: i + 1 });
          expect(res.status).toBe(200);
        }
      }),
    );
    // The endpoint's type only: creating the category and the pet added catalogue events too.
    const events = (
      await services.query<{ id: string }>(`SELECT id FROM events WHERE type = 'inventory.changed' ORDER BY id`)
    ).map((r) => Number(r.id));
    await eventually(
      () =>
        tally(
          events,
          receiver.received.map((m) => m.id),
        ).distinct >= events.length,
      60_000,
    );
    await sleep(1_000); // a second send of anything would arrive by now
    const counts = tally(
      events,
      receiver.received.map((m) => m.id),
    );
    const sentBy = await Promise.all(
      [a, b].map(async (service) => {
        const res = await fetch(`${service.base}/metrics`, { headers: { 'X-API-Key': services.adminKey } });
        const match = /^petstore_webhook_deliveries_total\{outcome="delivered"\} (\d+)$/m.exec(await res.text());
        return Number(match?.[1] ?? 0);
      }),
    );
    console.log(
      `webhooks two-instance test: ${counts.events} events, ${counts.deliveries} deliveries, ` +
        `${counts.duplicates} duplicates, ${counts.losses} losses (instance a sent ${sentBy[0]}, b ${sentBy[1]})`,
    );
    expect(counts.events).toBe(EVENTS);
    expect(counts.losses).toBe(0);
    expect(counts.duplicates).toBe(0);
    expect(sentBy[0] + sentBy[1]).toBe(EVENTS);
  });
});
