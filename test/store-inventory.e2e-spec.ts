import request from 'supertest';
import { createPet, issueStoreKey, putStock, storeSetup } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

describe('store inventory (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let writer: string;
  let categoryId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    ({ admin, writer, categoryId } = await storeSetup(t, 'Cats'));
  });
  afterAll(() => t.close());

  /** A new pet named Tom, created with the read-write key, in `status` if given. */
  const createTom = (status?: string) => createPet(t, writer, { name: 'Tom', categoryId, status });

  const setStock = (petId: number, quantity: unknown) => putStock(t, admin, petId, quantity);

  const place = (petId: number, quantity: number) =>
    request(t.http).post('/store/orders').set('X-API-Key', writer).send({ petId, quantity });

  const complete = (orderId: number) =>
    request(t.http).patch(`/store/orders/${orderId}`).set('X-API-Key', writer).send({ complete: true }).expect(200);

  const cancel = (orderId: number) =>
    request(t.http).delete(`/store/orders/${orderId}`).set('X-API-Key', writer).expect(204);

  async function item(petId: number): Promise<{ petId: number; quantity: number; status: string }> {
    return (await request(t.http).get(`/store/inventory/${petId}`).set('X-API-Key', writer).expect(200)).body;
  }

  async function petStatus(petId: number): Promise<string> {
    const res = await request(t.http).get(`/pets?id=${petId}`).set('X-API-Key', writer).expect(200);
    expect(res.body).toHaveLength(1);
    return res.body[0].status;
  }

  /** The pet, its inventory entry and the database agree; returns the entry. */
  async function consistent(petId: number): Promise<{ quantity: number; status: string }> {
    const entry = await item(petId);
    expect(entry).toEqual({ petId, quantity: expect.any(Number), status: expect.any(String) });
    expect(await petStatus(petId)).toBe(entry.status);
    const [row] = await t.db.query(
      'SELECT i.quantity, p.status::text AS status FROM inventory i JOIN pets p ON p.id = i.pet_id WHERE i.pet_id = $1',
      [petId],
    );
    expect(row).toEqual({ quantity: entry.quantity, status: entry.status });
    return { quantity: entry.quantity, status: entry.status };
  }

  describe('creating a pet', () => {
    it('creates its inventory entry with quantity 0 and the default status', async () => {
      const petId = await createTom();
      expect(await item(petId)).toEqual({ petId, quantity: 0, status: 'available' });
      await consistent(petId);
    });

    it.each(['available', 'pending', 'sold'])('creates the entry with the pet’s status %s', async (status) => {
      const petId = await createTom(status);
      expect(await item(petId)).toEqual({ petId, quantity: 0, status });
    });

    it('creates no pet and no entry when the pet is refused', async () => {
      const [{ before }] = await t.db.query('SELECT count(*)::int AS before FROM inventory');
      await request(t.http)
        .post('/pets')
        .set('X-API-Key', writer)
        .send({ name: 'Ghost', categoryId: 999999 })
        .expect(422);
      const [{ after }] = await t.db.query('SELECT count(*)::int AS after FROM inventory');
      expect(after).toBe(before);
      const [{ orphans }] = await t.db.query(
        'SELECT count(*)::int AS orphans FROM pets p LEFT JOIN inventory i ON i.pet_id = p.id WHERE i.pet_id IS NULL',
      );
      expect(orphans).toBe(0);
    });
  });

  describe('GET /store/inventory/{petId}', () => {
    it('answers an unknown pet with 404 PET_NOT_FOUND', async () => {
      const res = await request(t.http).get('/store/inventory/424242').set('X-API-Key', writer).expect(404);
      expect(res.body).toEqual(errorBody('PET_NOT_FOUND', 404));
    });

    it.each(['abc', '0', '-2', '2.5', '1e2'])('refuses the id %s with 400', async (id) => {
      const res = await request(t.http).get(`/store/inventory/${id}`).set('X-API-Key', writer).expect(400);
      expect(res.body).toEqual(errorBody('VALIDATION_FAILED', 400));
    });
  });

  describe('PUT /store/inventory/{petId}', () => {
    let petId: number;

    beforeAll(async () => {
      petId = await createTom();
    });

    it.each([0, 1, 1_000_000])('accepts quantity %i and answers the entry', async (quantity) => {
      const res = await setStock(petId, quantity).expect(200);
      expect(res.body).toEqual({ petId, quantity, status: expect.any(String) });
      expect((await item(petId)).quantity).toBe(quantity);
    });

    it.each([
      ['-1', -1],
      ['1000001', 1_000_001],
      ['1.5', 1.5],
      ['"5"', '5'],
      ['null', null],
      ['true', true],
      ['an array', [5]],
    ])('refuses quantity %s with 400 VALIDATION_FAILED and keeps the stock', async (_name, quantity) => {
      await setStock(petId, 7).expect(200);
      const res = await setStock(petId, quantity).expect(400);
      expect(res.body).toEqual(errorBody('VALIDATION_FAILED', 400));
      expect(res.body.message).toContain('quantity');
      expect((await item(petId)).quantity).toBe(7);
    });

    it('refuses a missing quantity and unknown fields with 400', async () => {
      const empty = await request(t.http).put(`/store/inventory/${petId}`).set('X-API-Key', admin).send({});
      expect(empty.status).toBe(400);
      expect(empty.body.message).toContain('quantity');
      const extra = await request(t.http)
        .put(`/store/inventory/${petId}`)
        .set('X-API-Key', admin)
        .send({ quantity: 3, status: 'sold' });
      expect(extra.status).toBe(400);
      expect(extra.body.message).toContain('status');
    });

    it('answers an unknown pet with 404 PET_NOT_FOUND and a bad id with 400', async () => {
      const res = await setStock(31337000, 5).expect(404);
      expect(res.body).toEqual(errorBody('PET_NOT_FOUND', 404));
      await request(t.http).put('/store/inventory/nope').set('X-API-Key', admin).send({ quantity: 1 }).expect(400);
    });

    it('needs the admin scope (403 for a write key)', async () => {
      const res = await request(t.http)
        .put(`/store/inventory/${petId}`)
        .set('X-API-Key', writer)
        .send({ quantity: 1 })
        .expect(403);
      expect(res.body).toEqual(errorBody('INSUFFICIENT_SCOPE', 403));
    });
  });

  describe('restock rules (API.md section 3)', () => {
    it.each(['pending', 'sold'])('units make a %s pet available', async (status) => {
      const petId = await createTom(status);
      expect((await setStock(petId, 3).expect(200)).body).toEqual({ petId, quantity: 3, status: 'available' });
      expect(await consistent(petId)).toEqual({ quantity: 3, status: 'available' });
    });

    it('0 makes an available pet without open orders sold', async () => {
      const petId = await createTom();
      await setStock(petId, 5).expect(200);
      expect((await setStock(petId, 0).expect(200)).body).toEqual({ petId, quantity: 0, status: 'sold' });
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'sold' });
    });

    it('0 makes an available pet with open orders pending; they can then complete it to sold', async () => {
      const petId = await createTom();
      await setStock(petId, 5).expect(200);
      const order = (await place(petId, 2).expect(201)).body.id;
      expect((await setStock(petId, 0).expect(200)).body).toEqual({ petId, quantity: 0, status: 'pending' });
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'pending' });
      await complete(order);
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'sold' });
    });

    it.each(['pending', 'sold'])('0 leaves a %s pet as it is', async (status) => {
      const petId = await createTom(status);
      expect((await setStock(petId, 0).expect(200)).body).toEqual({ petId, quantity: 0, status });
    });

    it('0 leaves a pet made pending by its last order pending', async () => {
      const petId = await createTom();
      await setStock(petId, 1).expect(200);
      await place(petId, 1).expect(201);
      expect((await setStock(petId, 0).expect(200)).body).toEqual({ petId, quantity: 0, status: 'pending' });
    });

    it('sets, rather than adds to, the stock', async () => {
      const petId = await createTom();
      await setStock(petId, 10).expect(200);
      await place(petId, 4).expect(201);
      expect((await setStock(petId, 2).expect(200)).body.quantity).toBe(2);
    });
  });

  describe('InventoryItem.status always equals the pet’s status', () => {
    it('through a whole life: restock, orders, completion, cancel, restock', async () => {
      const petId = await createTom();
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'available' });
      await setStock(petId, 3).expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 3, status: 'available' });
      const a = (await place(petId, 2).expect(201)).body.id;
      expect(await consistent(petId)).toEqual({ quantity: 1, status: 'available' });
      const b = (await place(petId, 1).expect(201)).body.id;
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'pending' });
      await complete(a);
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'pending' });
      await cancel(b);
      expect(await consistent(petId)).toEqual({ quantity: 1, status: 'available' });
      const c = (await place(petId, 1).expect(201)).body.id;
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'pending' });
      await complete(c);
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'sold' });
      await setStock(petId, 4).expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 4, status: 'available' });
    });

    it('follows staff edits by PATCH /pets, and ordering follows the edited status', async () => {
      const petId = await createTom();
      await setStock(petId, 5).expect(200);
      await request(t.http).patch(`/pets/${petId}`).set('X-API-Key', writer).send({ status: 'sold' }).expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 5, status: 'sold' });
      expect((await place(petId, 1).expect(409)).body.code).toBe('PET_NOT_AVAILABLE');
      await request(t.http).patch(`/pets/${petId}`).set('X-API-Key', writer).send({ status: 'pending' }).expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 5, status: 'pending' });
      expect((await place(petId, 1).expect(409)).body.code).toBe('PET_NOT_AVAILABLE');
      await request(t.http).patch(`/pets/${petId}`).set('X-API-Key', writer).send({ status: 'available' }).expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 5, status: 'available' });
      await place(petId, 1).expect(201);
      expect(await consistent(petId)).toEqual({ quantity: 4, status: 'available' });
      await request(t.http).patch(`/pets/${petId}`).set('X-API-Key', writer).send({ name: 'Tommy' }).expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 4, status: 'available' });
    });

    it('follows staff edits by PUT /pets (an omitted status is the default)', async () => {
      const petId = await createTom();
      await setStock(petId, 2).expect(200);
      await request(t.http)
        .put(`/pets/${petId}`)
        .set('X-API-Key', writer)
        .send({ name: 'Tom', categoryId, status: 'pending' })
        .expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 2, status: 'pending' });
      await request(t.http)
        .put(`/pets/${petId}`)
        .set('X-API-Key', writer)
        .send({ name: 'Tom', categoryId })
        .expect(200);
      expect(await consistent(petId)).toEqual({ quantity: 2, status: 'available' });
    });

    it('an available pet edited with stock 0 sells once its last order completes', async () => {
      const petId = await createTom();
      await setStock(petId, 1).expect(200);
      const order = (await place(petId, 1).expect(201)).body.id;
      await request(t.http).patch(`/pets/${petId}`).set('X-API-Key', writer).send({ status: 'available' }).expect(200);
      expect((await place(petId, 1).expect(409)).body.code).toBe('INSUFFICIENT_STOCK');
      await complete(order);
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'sold' });
    });

    it('holds for every entry of the list', async () => {
      const rows = await t.db.query(`SELECT count(*)::int AS n FROM inventory i JOIN pets p ON p.id = i.pet_id`);
      const res = await request(t.http).get('/store/inventory?limit=100').set('X-API-Key', writer).expect(200);
      expect(res.body.length).toBe(Math.min(rows[0].n, 100));
      for (const entry of res.body) expect(await petStatus(entry.petId)).toBe(entry.status);
    });
  });

  describe('DELETE /pets/{petId} and the store', () => {
    it('refuses a pet with an open order with 409 PET_HAS_ORDERS and changes nothing', async () => {
      const petId = await createTom();
      await setStock(petId, 3).expect(200);
      const order = (await place(petId, 1).expect(201)).body;
      const res = await request(t.http).delete(`/pets/${petId}`).set('X-API-Key', writer).expect(409);
      expect(res.body).toEqual(errorBody('PET_HAS_ORDERS', 409));
      expect(await consistent(petId)).toEqual({ quantity: 2, status: 'available' });
      const still = await request(t.http).get(`/store/orders/${order.id}`).set('X-API-Key', writer).expect(200);
      expect(still.body).toEqual(order);
    });

    it('refuses a pet whose only order is complete with 409 PET_HAS_ORDERS', async () => {
      const petId = await createTom();
      await setStock(petId, 1).expect(200);
      const order = (await place(petId, 1).expect(201)).body.id;
      await complete(order);
      const res = await request(t.http).delete(`/pets/${petId}`).set('X-API-Key', writer).expect(409);
      expect(res.body).toEqual(errorBody('PET_HAS_ORDERS', 409));
      expect(await consistent(petId)).toEqual({ quantity: 0, status: 'sold' });
      await request(t.http).get(`/store/orders/${order}`).set('X-API-Key', writer).expect(200);
    });

    it('deletes a pet without orders together with its inventory entry', async () => {
      const petId = await createTom();
      await setStock(petId, 9).expect(200);
      await request(t.http).delete(`/pets/${petId}`).set('X-API-Key', writer).expect(204);
      const res = await request(t.http).get(`/store/inventory/${petId}`).set('X-API-Key', writer).expect(404);
      expect(res.body).toEqual(errorBody('PET_NOT_FOUND', 404));
      const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM inventory WHERE pet_id = $1', [petId]);
      expect(n).toBe(0);
      await setStock(petId, 1).expect(404);
      expect((await place(petId, 1).expect(422)).body.code).toBe('PET_NOT_FOUND');
    });

    it('deletes a pet whose orders were all cancelled (cancelled orders are gone)', async () => {
      const petId = await createTom();
      await setStock(petId, 2).expect(200);
      await cancel((await place(petId, 2).expect(201)).body.id);
      await request(t.http).delete(`/pets/${petId}`).set('X-API-Key', writer).expect(204);
      await request(t.http).get(`/store/inventory/${petId}`).set('X-API-Key', writer).expect(404);
    });
  });

  describe('GET /store/inventory (list)', () => {
    let mine: Array<{ petId: number; status: string }>;

    beforeAll(async () => {
      await t.reset();
      ({ admin, writer, categoryId } = await storeSetup(t, 'Cats'));
      mine = [];
      for (const status of ['available', 'sold', 'pending', 'available', 'sold']) {
        mine.push({ petId: await createTom(status), status });
      }
    });

    it('lists one entry per pet by ascending pet id', async () => {
      const res = await request(t.http).get('/store/inventory').set('X-API-Key', writer).expect(200);
      expect(res.body).toEqual(mine.map(({ petId, status }) => ({ petId, quantity: 0, status })));
      expect(res.headers.link).toBeUndefined();
    });

    it('pages with limit and the next Link', async () => {
      const seen: number[] = [];
      let url: string | undefined = '/store/inventory?limit=2';
      while (url) {
        const res = await request(t.http).get(url).set('X-API-Key', writer).expect(200);
        expect(res.body.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.map((i: { petId: number }) => i.petId));
        const link = res.headers.link as string | undefined;
        url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
      }
      expect(seen).toEqual(mine.map((m) => m.petId));
    });

    it('filters by one or several statuses, also across pages', async () => {
      const ids = async (query: string) =>
        (await request(t.http).get(`/store/inventory?${query}`).set('X-API-Key', writer).expect(200)).body.map(
          (i: { petId: number }) => i.petId,
        );
      const having = (...statuses: string[]) => mine.filter((m) => statuses.includes(m.status)).map((m) => m.petId);
      expect(await ids('status=sold')).toEqual(having('sold'));
      expect(await ids('status=available')).toEqual(having('available'));
      expect(await ids('status=pending&status=sold')).toEqual(having('pending', 'sold'));
      const first = await request(t.http).get('/store/inventory?status=sold&limit=1').set('X-API-Key', writer);
      expect(first.body.map((i: { petId: number }) => i.petId)).toEqual([having('sold')[0]]);
      expect(first.headers.link).toContain('status=sold');
      const next = /^<([^>]+)>/.exec(first.headers.link)![1];
      const second = await request(t.http).get(next).set('X-API-Key', writer).expect(200);
      expect(second.body.map((i: { petId: number }) => i.petId)).toEqual([having('sold')[1]]);
    });

    it('reflects orders and restocks in the filtered list', async () => {
      const [first] = mine;
      await setStock(first.petId, 1).expect(200);
      await place(first.petId, 1).expect(201);
      const pending = await request(t.http).get('/store/inventory?status=pending').set('X-API-Key', writer);
      expect(pending.body).toContainEqual({ petId: first.petId, quantity: 0, status: 'pending' });
    });

    it.each(['status=lost', 'status=', 'limit=0', 'limit=1000', 'cursor=%%%', 'petId=1'])(
      'refuses ?%s with 400 VALIDATION_FAILED',
      async (query) => {
        const res = await request(t.http).get(`/store/inventory?${query}`).set('X-API-Key', writer).expect(400);
        expect(res.body).toEqual(errorBody('VALIDATION_FAILED', 400));
      },
    );

    it('needs a key (401) and accepts a read-only key', async () => {
      await request(t.http).get('/store/inventory').expect(401);
      const reader = (await issueStoreKey(t, ['read'])).secret;
      await request(t.http).get('/store/inventory').set('X-API-Key', reader).expect(200);
      await request(t.http).get(`/store/inventory/${mine[0].petId}`).set('X-API-Key', reader).expect(200);
    });
  });
});
