import request from 'supertest';
import { inventoryLineEvents } from '../src/inventory/index.js';
import { orderPlaced } from '../src/orders/domain/order.events.js';
import { placeOrder } from '../src/orders/domain/order-rules.js';
import type { PetStatus } from '../src/pets/index.js';
import { DomainEventSubscriptions } from '../src/shared/domain-events/domain-events.js';
import { toStoreEvent } from '../src/webhooks/domain/store-event.js';
import { type FeedEvent, followPages, KEY } from './support/http.js';
import { createCategory, issueStoreKey, type StoreKey, stockedPet } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The order placement writes its own outbox rows and Idempotency-Key outcome, in the
 * statement that places it (migration PlaceOrderPublished), with a transaction around
 * it or, when no subscriber takes its events, without one. Here, on PostgreSQL, the
 * rows it writes are exactly what the outbox subscriber would write for the events
 * the domain rule yields (`toStoreEvent` of `inventoryLineEvents` and `orderPlaced`),
 * on both paths, once each; and a replay answers what the first request got.
 */
describe('orders publish their events in the placing statement (e2e)', () => {
  let t: TestApp;
  let admin: StoreKey;
  let buyer: StoreKey;
  let categoryId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    admin = await issueStoreKey(t, ['read', 'write', 'admin']);
    buyer = await issueStoreKey(t, ['read', 'write']);
    categoryId = await createCategory(t, admin.secret, 'Outbox');
  });
  afterAll(() => t.close());

  async function feedAfter(after: number): Promise<FeedEvent[]> {
    const pages = await followPages(t.http, admin.secret, `/events?limit=50&after=${after}`);
    return pages.flatMap((res) => res.body as FeedEvent[]);
  }

  async function lastEventId(): Promise<number> {
    return (await feedAfter(0)).at(-1)?.id ?? 0;
  }

  /** What the outbox subscriber would write for a placement of `units` on a line of `stock`. */
  function expected(petId: number, stock: number, units: number, orderId: number) {
    const before = { petId, quantity: stock, status: 'available' as PetStatus };
    const after = placeOrder(before, units);
    const at = new Date();
    const order = { id: orderId, petId, quantity: units, shipDate: null, complete: false, ownerKeyId: buyer.id };
    return [...inventoryLineEvents(before, after, buyer.id, at), orderPlaced(order, buyer.id, at)]
      .map(toStoreEvent)
      .map((event) => ({ type: event?.type, data: event?.data }));
  }

  const typesAndData = (events: FeedEvent[]) => events.map(({ type, data }) => ({ type, data }));

  async function place(petId: number, units: number, idempotencyKey?: string) {
    const call = request(t.http).post('/store/orders').set(KEY, buyer.secret);
    if (idempotencyKey) call.set('Idempotency-Key', idempotencyKey);
    return call.send({ petId, quantity: units }).expect(201);
  }

  async function checkPlacements(label: string): Promise<void> {
    const petId = await stockedPet(t, admin.secret, 3, { name: `${label} pet`, categoryId });
    const after = await lastEventId();
    const first = await place(petId, 2);
    const last = await place(petId, 1, `${label}-key`);
    const events = await feedAfter(after);
    expect(typesAndData(events)).toEqual([
      ...expected(petId, 3, 2, first.body.id),
      ...expected(petId, 1, 1, last.body.id),
    ]);
    for (const event of events) expect(new Date(event.occurredAt).getTime()).not.toBeNaN();

    const replay = await place(petId, 1, `${label}-key`);
    expect(replay.body).toEqual(last.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await feedAfter(events.at(-1)!.id)).toEqual([]);
  }

  it("without a subscriber to join: one statement, the rule's events in the outbox, the outcome kept", async () => {
    await checkPlacements('alone');
  });

  it('with a subscriber, in a transaction it joins: the same rows, once, and the subscriber hears each event', async () => {
    const heard: string[] = [];
    t.app.get(DomainEventSubscriptions).subscribe('OrderPlaced', async (event) => void heard.push(event.type));
    await checkPlacements('joined');
    expect(heard).toEqual(['OrderPlaced', 'OrderPlaced']);
  });
});
