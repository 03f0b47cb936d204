import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { issueStoreKey, putStock, stockedPet, storeSetup } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const label = (r: request.Response): string => (r.status < 400 ? String(r.status) : `${r.status} ${r.body?.code}`);

/** How many responses had each status (and error code). */
const tally = (responses: request.Response[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const r of responses) counts[label(r)] = (counts[label(r)] ?? 0) + 1;
  return counts;
};

describe('store under concurrency (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let writer: string;
  let categoryId: number;
  /** Requests the server is handling right now, and the most it handled at once since `resetOverlap`. */
  let inFlight = 0;
  let maxInFlight = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    // A listening server: supertest then sends every request to the one address, truly in parallel.
    await t.app.listen(0, '127.0.0.1');
    t.http.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.once('close', () => inFlight--);
    });
    ({ admin, writer, categoryId } = await storeSetup(t, 'Birds'));
  });
  afterAll(() => t.close());

  beforeEach(() => {
    maxInFlight = 0;
  });

  const pet = (stock: number) => stockedPet(t, admin, stock, { name: 'Tweety', categoryId });

  const place = (petId: number, quantity = 1, key = writer) =>
    request(t.http).post('/store/orders').set('X-API-Key', key).send({ petId, quantity });

  async function dbLine(petId: number): Promise<{ quantity: number; status: string; open: number; orders: number }> {
    const [row] = await t.db.query(
      `SELECT i.quantity, p.status::text AS status,
              (SELECT count(*)::int FROM orders o WHERE o.pet_id = p.id AND NOT o.complete) AS open,
              (SELECT count(*)::int FROM orders o WHERE o.pet_id = p.id) AS orders
         FROM inventory i JOIN pets p ON p.id = i.pet_id WHERE p.id = $1`,
      [petId],
    );
    return row;
  }

  async function openUnits(petId: number): Promise<number> {
    const [{ units }] = await t.db.query(
      'SELECT coalesce(sum(quantity), 0)::int AS units FROM orders WHERE pet_id = $1 AND NOT complete',
      [petId],
    );
    return units;
  }

  it('300 concurrent orders of 1 unit for 100 units: exactly 100 succeed, stock 0, pet pending', async () => {
    const petId = await pet(100);
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: 300 }, () => place(petId)));
    const wallMs = Math.round(performance.now() - started);
    const created = responses.filter((r) => r.status === 201);
    const conflicts = responses.filter((r) => r.status === 409);
    const line = await dbLine(petId);
    console.log(
      `[store-concurrency] orders: requests=300 successes=${created.length} conflicts=${conflicts.length} ` +
        `other=${300 - created.length - conflicts.length} finalStock=${line.quantity} status=${line.status} ` +
        `orderRows=${line.orders} maxInFlight=${maxInFlight} wallMs=${wallMs} ${JSON.stringify(tally(responses))}`,
    );
    // The orders raced (how many overlap depends on how fast each is answered: a
    // placement is one statement, so fewer than the 300 sent are ever in flight at once).
    expect(maxInFlight).toBeGreaterThan(2);
    expect(tally(responses)).toEqual(
      expect.objectContaining({ '201': 100 }), // and nothing but 409s besides, checked next
    );
    expect(created).toHaveLength(100);
    expect(conflicts).toHaveLength(200);
    for (const r of conflicts) {
      expect(['INSUFFICIENT_STOCK', 'PET_NOT_AVAILABLE']).toContain(r.body.code);
      expect(r.body).toEqual({ code: r.body.code, message: expect.any(String), status: 409 });
    }
    expect(new Set(created.map((r) => r.body.id)).size).toBe(100);
    expect(line).toEqual({ quantity: 0, status: 'pending', open: 100, orders: 100 });
    const item = await request(t.http).get(`/store/inventory/${petId}`).set('X-API-Key', writer).expect(200);
    expect(item.body).toEqual({ petId, quantity: 0, status: 'pending' });
  });

  it('500 concurrent orders from several keys for 100 units (API.md section 3): exactly 100 succeed', async () => {
    const petId = await pet(100);
    const keys = await Promise.all(
      Array.from({ length: 5 }, async () => (await issueStoreKey(t, ['read', 'write'])).secret),
    );
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: 500 }, (_, i) => place(petId, 1, keys[i % 5])));
    const wallMs = Math.round(performance.now() - started);
    const line = await dbLine(petId);
    const counts = tally(responses);
    console.log(
      `[store-concurrency] orders: requests=500 successes=${counts['201'] ?? 0} ` +
        `conflicts=${responses.filter((r) => r.status === 409).length} finalStock=${line.quantity} ` +
        `status=${line.status} orderRows=${line.orders} maxInFlight=${maxInFlight} wallMs=${wallMs} ${JSON.stringify(counts)}`,
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(100);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(400);
    expect(line).toEqual({ quantity: 0, status: 'pending', open: 100, orders: 100 });
  });

  it('orders of several units never oversell: successes add up to at most the stock', async () => {
    const petId = await pet(100);
    const sizes = Array.from({ length: 120 }, (_, i) => 1 + (i % 7));
    const started = performance.now();
    const responses = await Promise.all(sizes.map((q) => place(petId, q)));
    const wallMs = Math.round(performance.now() - started);
    const sold = responses.reduce((sum, r, i) => sum + (r.status === 201 ? sizes[i] : 0), 0);
    const line = await dbLine(petId);
    console.log(
      `[store-concurrency] mixed sizes: requests=120 successes=${responses.filter((r) => r.status === 201).length} ` +
        `unitsSold=${sold} finalStock=${line.quantity} status=${line.status} maxInFlight=${maxInFlight} wallMs=${wallMs}`,
    );
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(sold + line.quantity).toBe(100);
    expect(await openUnits(petId)).toBe(sold);
    expect(line.status).toBe(line.quantity === 0 ? 'pending' : 'available');
  });

  it('20 concurrent DELETEs of one open order: exactly one 204, the rest 404, units returned once', async () => {
    const petId = await pet(10);
    const order = (await place(petId, 4).expect(201)).body.id;
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => request(t.http).delete(`/store/orders/${order}`).set('X-API-Key', writer)),
    );
    const wallMs = Math.round(performance.now() - started);
    const line = await dbLine(petId);
    console.log(
      `[store-concurrency] cancels: requests=20 successes=${responses.filter((r) => r.status === 204).length} ` +
        `notFound=${responses.filter((r) => r.status === 404).length} finalStock=${line.quantity} ` +
        `maxInFlight=${maxInFlight} wallMs=${wallMs}`,
    );
    expect(tally(responses)).toEqual({ '204': 1, '404 ORDER_NOT_FOUND': 19 });
    expect(line).toEqual({ quantity: 10, status: 'available', open: 0, orders: 0 });
  });

  it('concurrent completes of the last open orders of a pet with stock 0 leave it sold, not stuck pending', async () => {
    const pets = [await pet(10), await pet(10), await pet(10)];
    const orders: number[] = [];
    for (const petId of pets) {
      for (let i = 0; i < 10; i++) orders.push((await place(petId).expect(201)).body.id);
      expect((await dbLine(petId)).status).toBe('pending');
    }
    const started = performance.now();
    const responses = await Promise.all(
      orders.map((id) =>
        request(t.http).patch(`/store/orders/${id}`).set('X-API-Key', writer).send({ complete: true }),
      ),
    );
    const wallMs = Math.round(performance.now() - started);
    const lines = await Promise.all(pets.map(dbLine));
    console.log(
      `[store-concurrency] completes: requests=${orders.length} successes=${responses.filter((r) => r.status === 200).length} ` +
        `finalStatuses=${lines.map((l) => l.status).join(',')} finalStock=${lines.map((l) => l.quantity).join(',')} ` +
        `maxInFlight=${maxInFlight} wallMs=${wallMs}`,
    );
    expect(tally(responses)).toEqual({ '200': 30 });
    for (const line of lines) expect(line).toEqual({ quantity: 0, status: 'sold', open: 0, orders: 10 });
  });

  it('concurrent completes and cancels of the last open orders: units come back and the pet is available', async () => {
    const petId = await pet(12);
    const orders: number[] = [];
    for (let i = 0; i < 6; i++) orders.push((await place(petId, 2).expect(201)).body.id);
    const responses = await Promise.all(
      orders.map((id, i) =>
        i % 2 === 0
          ? request(t.http).patch(`/store/orders/${id}`).set('X-API-Key', writer).send({ complete: true })
          : request(t.http).delete(`/store/orders/${id}`).set('X-API-Key', writer),
      ),
    );
    expect(tally(responses)).toEqual({ '200': 3, '204': 3 });
    expect(await dbLine(petId)).toEqual({ quantity: 6, status: 'available', open: 0, orders: 3 });
  });

  it('a complete racing a cancel of the same order: exactly one wins, and stock agrees', async () => {
    const petId = await pet(50);
    let cancelled = 0;
    for (let round = 0; round < 15; round++) {
      const id = (await place(petId, 2).expect(201)).body.id;
      const [done, gone] = await Promise.all([
        request(t.http).patch(`/store/orders/${id}`).set('X-API-Key', writer).send({ complete: true }),
        request(t.http).delete(`/store/orders/${id}`).set('X-API-Key', writer),
      ]);
      expect(['200|409 ORDER_ALREADY_COMPLETE', '404 ORDER_NOT_FOUND|204']).toContain(`${label(done)}|${label(gone)}`);
      if (gone.status === 204) cancelled++;
    }
    const line = await dbLine(petId);
    expect(line.orders).toBe(15 - cancelled);
    expect(line.quantity).toBe(50 - 2 * (15 - cancelled));
    expect(line.open).toBe(0);
  });

  it('concurrent orders and cancels conserve units: stock + open units = initial stock', async () => {
    const petId = await pet(40);
    const existing: number[] = [];
    for (let i = 0; i < 30; i++) existing.push((await place(petId).expect(201)).body.id);
    const started = performance.now();
    const responses = await Promise.all([
      ...existing.map((id) => request(t.http).delete(`/store/orders/${id}`).set('X-API-Key', writer)),
      ...Array.from({ length: 60 }, () => place(petId)),
    ]);
    const wallMs = Math.round(performance.now() - started);
    const line = await dbLine(petId);
    console.log(
      `[store-concurrency] orders+cancels: requests=90 ${JSON.stringify(tally(responses))} finalStock=${line.quantity} ` +
        `open=${line.open} status=${line.status} maxInFlight=${maxInFlight} wallMs=${wallMs}`,
    );
    expect(responses.slice(0, 30).every((r) => r.status === 204)).toBe(true);
    expect(responses.slice(30).every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(line.quantity).toBeGreaterThanOrEqual(0);
    expect(line.quantity + (await openUnits(petId))).toBe(40);
    expect(line.open).toBe(responses.slice(30).filter((r) => r.status === 201).length);
    expect(line.status).toBe(line.quantity === 0 ? 'pending' : 'available');
  });

  it('concurrent restocks and orders keep stock non-negative and the inventory status the pet’s', async () => {
    const petId = await pet(5);
    const responses = await Promise.all([
      ...Array.from({ length: 40 }, () => place(petId)),
      ...[0, 10, 0, 3, 7, 0, 20].map((quantity) => putStock(t, admin, petId, quantity)),
    ]);
    expect(responses.every((r) => [200, 201, 409].includes(r.status))).toBe(true);
    const line = await dbLine(petId);
    expect(line.quantity).toBeGreaterThanOrEqual(0);
    const item = await request(t.http).get(`/store/inventory/${petId}`).set('X-API-Key', writer).expect(200);
    expect(item.body).toEqual({ petId, quantity: line.quantity, status: line.status });
    if (line.quantity > 0) expect(line.status).toBe('available');
  });

  it('10 concurrent requests with one Idempotency-Key place exactly one order', async () => {
    const petId = await pet(50);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(t.http)
          .post('/store/orders')
          .set('X-API-Key', writer)
          .set('Idempotency-Key', 'burst-1')
          .send({ petId, quantity: 3 }),
      ),
    );
    const counts = tally(responses);
    console.log(
      `[store-concurrency] idempotent burst: requests=10 ${JSON.stringify(counts)} maxInFlight=${maxInFlight}`,
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 201)) expect(r.status).toBe(409);
    const line = await dbLine(petId);
    expect(line.orders).toBe(1);
    expect(line.quantity).toBe(47);
  });

  it('concurrent bursts with different Idempotency-Keys each place one order', async () => {
    const petId = await pet(100);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request(t.http)
          .post('/store/orders')
          .set('X-API-Key', writer)
          .set('Idempotency-Key', `multi-${i % 8}`)
          .send({ petId, quantity: 1 }),
      ),
    );
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const ids = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(8);
    expect(await dbLine(petId)).toEqual(expect.objectContaining({ quantity: 92, orders: 8 }));
  });
});
