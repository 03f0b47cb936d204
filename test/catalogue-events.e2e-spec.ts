import { randomBytes } from 'node:crypto';
import { Webhook as Verifier } from 'standardwebhooks';
import request from 'supertest';
import { eventually } from './support/eventually.js';
import { type FeedEvent, followPages, KEY } from './support/http.js';
import { issueStoreKey, putStock, type StoreKey } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { type Receiver, startReceiver } from './support/webhook-receiver.mjs';

const CATALOGUE_TYPES = [
  'pet.created',
  'pet.updated',
  'pet.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
];

/**
 * Catalogue events over HTTP on PostgreSQL: every pet and category change appears in
 * the feed of any key with the read scope, carrying the resource as the API returns
 * it (for a deletion, as it was); a refused change or one that changes nothing adds
 * no event; an endpoint subscribed to them receives them signed.
 */
describe('catalogue events (e2e)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: StoreKey;
  let writer: StoreKey;
  let reader: StoreKey;

  beforeAll(async () => {
    receiver = await startReceiver(() => 204);
    t = await createTestApp({
      WEBHOOKS_DISPATCHER: 'true',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_ALLOWED_PORTS: 'any', // the receiver listens on a random port
      WEBHOOKS_SECRET_KEY: randomBytes(32).toString('base64'),
      WEBHOOKS_POLL_INTERVAL_MS: '50',
    });
    await t.reset();
    admin = await issueStoreKey(t, ['read', 'write', 'admin']);
    writer = await issueStoreKey(t, ['read', 'write']);
    reader = await issueStoreKey(t, ['read']);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const api = () => request(t.http);

  /** The feed as `key` sees it, every page, after event id `after`. */
  async function feed(key: StoreKey, after = 0, query = ''): Promise<FeedEvent[]> {
    const pages = await followPages(t.http, key.secret, `/events?limit=5&after=${after}${query}`);
    return pages.flatMap((res) => res.body as FeedEvent[]);
  }

  /** The id of the newest event (0: none), to look only at what a test causes. */
  async function lastEventId(): Promise<number> {
    return (await feed(admin)).at(-1)?.id ?? 0;
  }

  const typesAndData = (events: FeedEvent[]) => events.map(({ type, data }) => ({ type, data }));

  it('lists each change of a pet or category to a read-only key, in order, with the resource as data', async () => {
    const after = await lastEventId();
    const dogs = (
      await api().post('/categories').set(KEY, writer.secret).send({ name: 'Dogs', description: 'Loyal' }).expect(201)
    ).body;
    const hounds = (
      await api().put(`/categories/${dogs.id}`).set(KEY, writer.secret).send({ name: 'Hounds' }).expect(200)
    ).body;
    const rex = (
      await api().post('/pets').set(KEY, writer.secret).send({ name: 'Rex', categoryId: dogs.id }).expect(201)
    ).body;
    const max = (await api().patch(`/pets/${rex.id}`).set(KEY, writer.secret).send({ name: 'Max' }).expect(200)).body;
    await api().delete(`/pets/${rex.id}`).set(KEY, writer.secret).expect(204);
    await api().delete(`/categories/${dogs.id}`).set(KEY, writer.secret).expect(204);

    const events = await feed(reader, after);
    expect(typesAndData(events)).toEqual([
      { type: 'category.created', data: { id: dogs.id, name: 'Dogs', description: 'Loyal' } },
      { type: 'category.updated', data: { id: dogs.id, name: 'Hounds' } },
      { type: 'pet.created', data: { id: rex.id, name: 'Rex', categoryId: dogs.id, status: 'available' } },
      { type: 'pet.updated', data: { id: rex.id, name: 'Max', categoryId: dogs.id, status: 'available' } },
      { type: 'pet.deleted', data: max },
      { type: 'category.deleted', data: hounds },
    ]);
    expect(events.map((e) => e.data)).toEqual([dogs, hounds, rex, max, max, hounds]);
    for (const event of events) expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt);
    expect(await feed(writer, after)).toEqual(events); // every key, whoever made the change
    expect(await feed(admin, after)).toEqual(events);
    const filtered = await feed(reader, after, '&type=pet.deleted&type=category.created');
    expect(filtered.map((e) => e.type)).toEqual(['category.created', 'pet.deleted']);
  });

  it('adds pet.updated beside pet.status_changed when staff change a status', async () => {
    const fish = (await api().post('/categories').set(KEY, writer.secret).send({ name: 'Fish' }).expect(201)).body;
    const nemo = (
      await api().post('/pets').set(KEY, writer.secret).send({ name: 'Nemo', categoryId: fish.id }).expect(201)
    ).body;
    const after = await lastEventId();
    await api().patch(`/pets/${nemo.id}`).set(KEY, writer.secret).send({ status: 'sold' }).expect(200);
    expect(typesAndData(await feed(reader, after))).toEqual([
      { type: 'pet.updated', data: { ...nemo, status: 'sold' } },
      { type: 'pet.status_changed', data: { petId: nemo.id, oldStatus: 'available', newStatus: 'sold' } },
    ]);
  });

  it('adds no event for a refused change (400, 404, 409, 422) or one that changes nothing', async () => {
    const cats = (await api().post('/categories').set(KEY, writer.secret).send({ name: 'Cats' }).expect(201)).body;
    const birds = (await api().post('/categories').set(KEY, writer.secret).send({ name: 'Birds' }).expect(201)).body;
    const tom = (
      await api().post('/pets').set(KEY, writer.secret).send({ name: 'Tom', categoryId: cats.id }).expect(201)
    ).body;
    await putStock(t, admin.secret, tom.id, 2).expect(200);
    await api().post('/store/orders').set(KEY, writer.secret).send({ petId: tom.id, quantity: 1 }).expect(201);
    const after = await lastEventId();

    const refused: Array<[request.Test, number, string]> = [
      [api().post('/pets').send({ name: '', categoryId: cats.id }), 400, 'VALIDATION_FAILED'],
      [api().post('/pets').send({ name: 'Felix', categoryId: 999_999 }), 422, 'CATEGORY_NOT_FOUND'],
      [api().put(`/pets/${tom.id}`).send({ name: 'Tom', categoryId: 999_999 }), 422, 'CATEGORY_NOT_FOUND'],
      [api().patch(`/pets/${tom.id}`).send({ status: 'lost' }), 400, 'VALIDATION_FAILED'],
      [api().put('/pets/999999').send({ name: 'Tom', categoryId: cats.id }), 404, 'PET_NOT_FOUND'],
      [api().delete(`/pets/${tom.id}`), 409, 'PET_HAS_ORDERS'],
      [api().delete('/pets/999999'), 404, 'PET_NOT_FOUND'],
      [api().post('/categories').send({ name: 'CATS' }), 409, 'CATEGORY_NAME_TAKEN'],
      [api().post('/categories').send({ name: 'Mice', extra: true }), 400, 'VALIDATION_FAILED'],
      [api().put(`/categories/${birds.id}`).send({ name: 'cats' }), 409, 'CATEGORY_NAME_TAKEN'],
      [api().put('/categories/999999').send({ name: 'Mice' }), 404, 'CATEGORY_NOT_FOUND'],
      [api().delete(`/categories/${cats.id}`), 409, 'CATEGORY_IN_USE'],
      [api().delete('/categories/999999'), 404, 'CATEGORY_NOT_FOUND'],
    ];
    for (const [req, status, code] of refused) {
      const res = await req.set(KEY, writer.secret);
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    }
    // Accepted, but nothing changes: no event either.
    await api().put(`/categories/${birds.id}`).set(KEY, writer.secret).send({ name: 'Birds' }).expect(200);
    await api().patch(`/pets/${tom.id}`).set(KEY, writer.secret).send({ name: 'Tom' }).expect(200);

    expect(await feed(reader, after)).toEqual([]);
    await api().get(`/categories/${cats.id}`).set(KEY, reader.secret).expect(200);
  });

  it('delivers catalogue events to an endpoint subscribed to them, signed, as the feed lists them', async () => {
    const hook = (
      await api()
        .post('/webhooks')
        .set(KEY, writer.secret)
        .send({ url: `${receiver.url}/catalogue`, events: CATALOGUE_TYPES })
        .expect(201)
    ).body;
    const after = await lastEventId();
    const reptiles = (await api().post('/categories').set(KEY, admin.secret).send({ name: 'Reptiles' }).expect(201))
      .body;
    const kaa = (
      await api().post('/pets').set(KEY, admin.secret).send({ name: 'Kaa', categoryId: reptiles.id }).expect(201)
    ).body;
    await api()
      .put(`/pets/${kaa.id}`)
      .set(KEY, admin.secret)
      .send({ name: 'Kaa', categoryId: reptiles.id, status: 'pending' })
      .expect(200);
    await api().delete(`/pets/${kaa.id}`).set(KEY, admin.secret).expect(204);
    await api().delete(`/categories/${reptiles.id}`).set(KEY, admin.secret).expect(204);

    const listed = (await feed(reader, after)).filter((e) => CATALOGUE_TYPES.includes(e.type));
    expect(listed.map((e) => e.type)).toEqual([
      'category.created',
      'pet.created',
      'pet.updated',
      'pet.deleted',
      'category.deleted',
    ]);
    const at = () => receiver.received.filter((m) => m.path === '/catalogue');
    await eventually(() => at().length >= listed.length);
    const verifier = new Verifier(hook.secret);
    const delivered = at().map(
      (m) =>
        verifier.verify(m.body, {
          'webhook-id': m.id,
          'webhook-timestamp': m.timestamp,
          'webhook-signature': m.signature,
        }) as FeedEvent,
    );
    expect([...delivered].sort((a, b) => a.id - b.id)).toEqual(listed);
  });
});
