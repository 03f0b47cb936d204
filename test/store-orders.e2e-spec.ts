import request from 'supertest';
import { IdempotencyJanitor } from '../src/orders/application/idempotency-janitor.js';
import { createCategory, issueStoreKey, putStock, type StoreKey, stockedPet } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('store orders (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let alice: StoreKey;
  let bob: StoreKey;
  let reader: string;
  let categoryId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    admin = (await issueStoreKey(t, ['read', 'write', 'admin'])).secret;
    alice = await issueStoreKey(t, ['read', 'write']);
    bob = await issueStoreKey(t, ['read', 'write']);
    reader = (await issueStoreKey(t, ['read'])).secret;
    categoryId = await createCategory(t, admin, 'Dogs');
  });
  afterAll(() => t.close());

  /** A new pet with `stock` units (and its status as the store rules leave it). */
  const pet = (stock = 10, status?: string) => stockedPet(t, admin, stock, { name: 'Rex', categoryId, status });

  const setStock = (petId: number, quantity: number) => putStock(t, admin, petId, quantity).expect(200);

  const place = (key: string, body: object, idempotencyKey?: string) => {
    const req = request(t.http).post('/store/orders').set('X-API-Key', key);
    if (idempotencyKey !== undefined) req.set('Idempotency-Key', idempotencyKey);
    return req.send(body);
  };

  async function inventory(petId: number): Promise<{ quantity: number; status: string }> {
    const res = await request(t.http).get(`/store/inventory/${petId}`).set('X-API-Key', admin).expect(200);
    return { quantity: res.body.quantity, status: res.body.status };
  }

  async function orderRows(petId: number): Promise<number> {
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM orders WHERE pet_id = $1', [petId]);
    return n;
  }

  describe('authentication and scopes', () => {
    let petId: number;
    let orderId: number;

    beforeAll(async () => {
      petId = await pet(10);
      orderId = (await place(alice.secret, { petId, quantity: 1 }).expect(201)).body.id;
    });

    const operations = (): Array<[string, () => request.Test]> => [
      ['GET /store/orders', () => request(t.http).get('/store/orders')],
      ['POST /store/orders', () => request(t.http).post('/store/orders').send({ petId, quantity: 1 })],
      ['GET /store/orders/{id}', () => request(t.http).get(`/store/orders/${orderId}`)],
      ['PATCH /store/orders/{id}', () => request(t.http).patch(`/store/orders/${orderId}`).send({ complete: true })],
      ['DELETE /store/orders/{id}', () => request(t.http).delete(`/store/orders/${orderId}`)],
      ['GET /store/inventory', () => request(t.http).get('/store/inventory')],
      ['GET /store/inventory/{id}', () => request(t.http).get(`/store/inventory/${petId}`)],
      ['PUT /store/inventory/{id}', () => request(t.http).put(`/store/inventory/${petId}`).send({ quantity: 5 })],
    ];

    it('answers every store operation without a key with 401 UNAUTHENTICATED', async () => {
      for (const [, op] of operations()) {
        const res = await op().expect(401);
        expect(res.body).toEqual(errorBody('UNAUTHENTICATED', 401));
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it('answers every store operation with an unknown key with 401 INVALID_API_KEY', async () => {
      for (const [, op] of operations()) {
        const res = await op().set('X-API-Key', 'psk_not-a-real-key-000000000000000000').expect(401);
        expect(res.body).toEqual(errorBody('INVALID_API_KEY', 401));
      }
    });

    it('lets a read key use every GET but no write (403 INSUFFICIENT_SCOPE)', async () => {
      const expected: Record<string, number> = {
        'GET /store/orders': 200,
        'GET /store/orders/{id}': 404, // readable, but alice's order is not the reader's
        'GET /store/inventory': 200,
        'GET /store/inventory/{id}': 200,
      };
      for (const [name, op] of operations()) {
        const res = await op().set('X-API-Key', reader);
        if (name in expected) {
          expect([name, res.status]).toEqual([name, expected[name]]);
        } else {
          expect([name, res.status]).toEqual([name, 403]);
          expect(res.body).toEqual(errorBody('INSUFFICIENT_SCOPE', 403));
        }
      }
    });

    it('needs the admin scope to set stock: a write key gets 403 and the stock stays', async () => {
      const res = await request(t.http)
        .put(`/store/inventory/${petId}`)
        .set('X-API-Key', alice.secret)
        .send({ quantity: 999 })
        .expect(403);
      expect(res.body).toEqual(errorBody('INSUFFICIENT_SCOPE', 403));
      expect((await inventory(petId)).quantity).toBe(9);
    });

    it('lets a write key place, read, complete and cancel its orders', async () => {
      const placed = await place(alice.secret, { petId, quantity: 1 }).expect(201);
      await request(t.http).get(`/store/orders/${placed.body.id}`).set('X-API-Key', alice.secret).expect(200);
      await request(t.http).delete(`/store/orders/${placed.body.id}`).set('X-API-Key', alice.secret).expect(204);
      await request(t.http)
        .patch(`/store/orders/${orderId}`)
        .set('X-API-Key', alice.secret)
        .send({ complete: true })
        .expect(200);
    });
  });

  describe('POST /store/orders', () => {
    let petId: number;

    beforeAll(async () => {
      petId = await pet(2000);
    });

    it('places an order: 201, Location, the Order shape without owner, stock reduced', async () => {
      const before = await inventory(petId);
      const res = await place(alice.secret, { petId, quantity: 3 }).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), petId, quantity: 3, complete: false });
      expect(Number.isInteger(res.body.id) && res.body.id > 0).toBe(true);
      expect(res.headers.location).toBe(`/store/orders/${res.body.id}`);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await inventory(petId)).toEqual({ quantity: before.quantity - 3, status: 'available' });
      const [row] = await t.db.query('SELECT owner_key_id::int AS owner, complete FROM orders WHERE id = $1', [
        res.body.id,
      ]);
      expect(row).toEqual({ owner: alice.id, complete: false });
      const read = await request(t.http).get(res.headers.location).set('X-API-Key', alice.secret).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('keeps a requested ship date, normalised to ISO 8601 UTC', async () => {
      const res = await place(alice.secret, { petId, quantity: 1, shipDate: '2026-12-24T18:30:00+02:00' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        petId,
        quantity: 1,
        complete: false,
        shipDate: '2026-12-24T16:30:00.000Z',
      });
    });

    it.each([1, 1000])('accepts quantity %i', async (quantity) => {
      await place(alice.secret, { petId, quantity }).expect(201);
    });

    it.each([
      ['no petId', { quantity: 1 }, ['petId']],
      ['no quantity', { petId: 1 }, ['quantity']],
      ['an empty body', {}, ['petId', 'quantity']],
      ['quantity 0', { petId: 1, quantity: 0 }, ['quantity']],
      ['quantity 1001', { petId: 1, quantity: 1001 }, ['quantity']],
      ['a negative quantity', { petId: 1, quantity: -1 }, ['quantity']],
      ['a fractional quantity', { petId: 1, quantity: 1.5 }, ['quantity']],
      ['quantity as a string', { petId: 1, quantity: '1' }, ['quantity']],
      ['quantity null', { petId: 1, quantity: null }, ['quantity']],
      ['petId as a string', { petId: '1', quantity: 1 }, ['petId']],
      ['petId 0', { petId: 0, quantity: 1 }, ['petId']],
      ['a negative petId', { petId: -5, quantity: 1 }, ['petId']],
      ['an unsafe petId', { petId: 2 ** 53 + 2, quantity: 1 }, ['petId']],
      ['petId as an array', { petId: [1], quantity: 1 }, ['petId']],
      ['an id', { id: 5, petId: 1, quantity: 1 }, ['id']],
      ['complete: false', { petId: 1, quantity: 1, complete: false }, ['complete']],
      ['complete: true', { petId: 1, quantity: 1, complete: true }, ['complete']],
      ['an unknown field', { petId: 1, quantity: 1, owner: 3 }, ['owner']],
      ['a bad shipDate', { petId: 1, quantity: 1, shipDate: 'tomorrow' }, ['shipDate']],
      ['shipDate null', { petId: 1, quantity: 1, shipDate: null }, ['shipDate']],
      ['shipDate as a number', { petId: 1, quantity: 1, shipDate: 1767225600000 }, ['shipDate']],
      ['several bad fields', { petId: 'x', quantity: 0, id: 1 }, ['petId', 'quantity', 'id']],
    ])('refuses %s with 400 VALIDATION_FAILED naming the fields', async (_name, body, fields) => {
      const before = await orderRows(petId);
      const res = await place(alice.secret, body).expect(400);
      expect(res.body).toEqual(errorBody('VALIDATION_FAILED', 400));
      for (const field of fields) expect(res.body.message).toContain(field);
      expect(await orderRows(petId)).toBe(before);
    });

    it('refuses a body that is not JSON (415) or not parseable (400 MALFORMED_JSON)', async () => {
      const plain = await request(t.http)
        .post('/store/orders')
        .set('X-API-Key', alice.secret)
        .set('Content-Type', 'text/plain')
        .send('petId=1')
        .expect(415);
      expect(plain.body).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE', 415));
      const broken = await request(t.http)
        .post('/store/orders')
        .set('X-API-Key', alice.secret)
        .set('Content-Type', 'application/json')
        .send('{"petId": 1,')
        .expect(400);
      expect(broken.body).toEqual(errorBody('MALFORMED_JSON', 400));
      const array = await request(t.http)
        .post('/store/orders')
        .set('X-API-Key', alice.secret)
        .set('Content-Type', 'application/json')
        .send('[{"petId":1,"quantity":1}]')
        .expect(400);
      expect(array.body).toEqual(errorBody('VALIDATION_FAILED', 400));
    });

    it('answers a petId that names no pet with 422 PET_NOT_FOUND', async () => {
      const res = await place(alice.secret, { petId: 987654321, quantity: 1 }).expect(422);
      expect(res.body).toEqual(errorBody('PET_NOT_FOUND', 422));
    });

    it('refuses more units than in stock with 409 INSUFFICIENT_STOCK and changes nothing', async () => {
      const small = await pet(2);
      const res = await place(alice.secret, { petId: small, quantity: 3 }).expect(409);
      expect(res.body).toEqual(errorBody('INSUFFICIENT_STOCK', 409));
      expect(await inventory(small)).toEqual({ quantity: 2, status: 'available' });
      expect(await orderRows(small)).toBe(0);
    });

    it('refuses a pet with no stock yet (new pets start at 0) with 409 INSUFFICIENT_STOCK', async () => {
      const empty = await pet(0);
      const res = await place(alice.secret, { petId: empty, quantity: 1 }).expect(409);
      expect(res.body.code).toBe('INSUFFICIENT_STOCK');
    });

    it.each(['pending', 'sold'])('refuses a %s pet with 409 PET_NOT_AVAILABLE', async (status) => {
      const off = await pet(0, status);
      await setStock(off, 0);
      const res = await place(alice.secret, { petId: off, quantity: 1 }).expect(409);
      expect(res.body).toEqual(errorBody('PET_NOT_AVAILABLE', 409));
    });

    it('makes the pet pending when its last unit is ordered, then refuses with PET_NOT_AVAILABLE', async () => {
      const two = await pet(2);
      await place(alice.secret, { petId: two, quantity: 2 }).expect(201);
      expect(await inventory(two)).toEqual({ quantity: 0, status: 'pending' });
      const res = await place(alice.secret, { petId: two, quantity: 1 }).expect(409);
      expect(res.body.code).toBe('PET_NOT_AVAILABLE');
    });

    it('refuses a malformed Idempotency-Key with 400', async () => {
      for (const header of ['', 'x'.repeat(256), 'has space']) {
        const res = await place(alice.secret, { petId, quantity: 1 }, header);
        expect([header.length, res.status, res.body.code]).toEqual([header.length, 400, 'VALIDATION_FAILED']);
      }
    });
  });

  describe('GET /store/orders/{orderId}', () => {
    // Not plain positive decimal int64: 400, never read as another number (1e3 is not order 1000).
    it.each(['abc', '0', '-1', '1.5', '1.0', '1e3', '0x10', '01', '+1', '9223372036854775808'])(
      'refuses id %s with 400',
      async (id) => {
        const res = await request(t.http).get(`/store/orders/${id}`).set('X-API-Key', admin).expect(400);
        expect(res.body).toEqual(errorBody('VALIDATION_FAILED', 400));
      },
    );

    it.each(['99999999', '9007199254740993', '9223372036854775807'])(
      'answers the well-formed unknown id %s with 404 ORDER_NOT_FOUND',
      async (id) => {
        const res = await request(t.http).get(`/store/orders/${id}`).set('X-API-Key', admin).expect(404);
        expect(res.body).toEqual(errorBody('ORDER_NOT_FOUND', 404));
      },
    );
  });

  describe('PATCH /store/orders/{orderId} (complete)', () => {
    let petId: number;

    beforeAll(async () => {
      petId = await pet(100);
    });

    it('completes with shipDate defaulting to now, then refuses a second time with 409', async () => {
      const { body: order } = await place(alice.secret, { petId, quantity: 2 }).expect(201);
      const started = Date.now();
      const res = await request(t.http)
        .patch(`/store/orders/${order.id}`)
        .set('X-API-Key', alice.secret)
        .send({ complete: true })
        .expect(200);
      expect(res.body).toEqual({ id: order.id, petId, quantity: 2, complete: true, shipDate: expect.any(String) });
      expect(res.body.shipDate).toMatch(ISO_UTC);
      expect(Math.abs(Date.parse(res.body.shipDate) - started)).toBeLessThan(60_000);
      const again = await request(t.http)
        .patch(`/store/orders/${order.id}`)
        .set('X-API-Key', alice.secret)
        .send({ complete: true })
        .expect(409);
      expect(again.body).toEqual(errorBody('ORDER_ALREADY_COMPLETE', 409));
      const read = await request(t.http).get(`/store/orders/${order.id}`).set('X-API-Key', alice.secret).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('keeps a given shipDate', async () => {
      const { body: order } = await place(alice.secret, { petId, quantity: 1 }).expect(201);
      const res = await request(t.http)
        .patch(`/store/orders/${order.id}`)
        .set('X-API-Key', alice.secret)
        .send({ complete: true, shipDate: '2027-01-02T03:04:05Z' })
        .expect(200);
      expect(res.body.shipDate).toBe('2027-01-02T03:04:05.000Z');
    });

    it.each([
      ['complete: false', { complete: false }],
      ['an empty body', {}],
      ['complete as a string', { complete: 'true' }],
      ['complete as 1', { complete: 1 }],
      ['complete null', { complete: null }],
      ['another field', { complete: true, quantity: 5 }],
      ['a bad shipDate', { complete: true, shipDate: '2027-13-01T00:00:00Z' }],
      ['shipDate null', { complete: true, shipDate: null }],
    ])('refuses %s with 400 and leaves the order open', async (_name, body) => {
      const { body: order } = await place(alice.secret, { petId, quantity: 1 }).expect(201);
      const res = await request(t.http)
        .patch(`/store/orders/${order.id}`)
        .set('X-API-Key', alice.secret)
        .send(body)
        .expect(400);
      expect(res.body).toEqual(errorBody('VALIDATION_FAILED', 400));
      const read = await request(t.http).get(`/store/orders/${order.id}`).set('X-API-Key', alice.secret);
      expect(read.body.complete).toBe(false);
    });

    it('answers an unknown order with 404 and a bad id with 400', async () => {
      const missing = await request(t.http)
        .patch('/store/orders/88888888')
        .set('X-API-Key', admin)
        .send({ complete: true })
        .expect(404);
      expect(missing.body).toEqual(errorBody('ORDER_NOT_FOUND', 404));
      await request(t.http).patch('/store/orders/x').set('X-API-Key', admin).send({ complete: true }).expect(400);
    });

    it('sells the pet when stock is 0 and the last open order completes', async () => {
      const last = await pet(3);
      const a = (await place(alice.secret, { petId: last, quantity: 2 }).expect(201)).body.id;
      const b = (await place(bob.secret, { petId: last, quantity: 1 }).expect(201)).body.id;
      expect(await inventory(last)).toEqual({ quantity: 0, status: 'pending' });
      await request(t.http).patch(`/store/orders/${a}`).set('X-API-Key', alice.secret).send({ complete: true });
      expect(await inventory(last)).toEqual({ quantity: 0, status: 'pending' });
      await request(t.http).patch(`/store/orders/${b}`).set('X-API-Key', bob.secret).send({ complete: true });
      expect(await inventory(last)).toEqual({ quantity: 0, status: 'sold' });
    });

    it('keeps the pet available when stock remains', async () => {
      const some = await pet(5);
      const a = (await place(alice.secret, { petId: some, quantity: 2 }).expect(201)).body.id;
      await request(t.http).patch(`/store/orders/${a}`).set('X-API-Key', alice.secret).send({ complete: true });
      expect(await inventory(some)).toEqual({ quantity: 3, status: 'available' });
    });
  });

  describe('DELETE /store/orders/{orderId} (cancel)', () => {
    it('removes an open order and returns its units; a pending pet becomes available', async () => {
      const petId = await pet(4);
      const { body: order } = await place(alice.secret, { petId, quantity: 4 }).expect(201);
      expect(await inventory(petId)).toEqual({ quantity: 0, status: 'pending' });
      const res = await request(t.http).delete(`/store/orders/${order.id}`).set('X-API-Key', alice.secret).expect(204);
      expect(res.text).toBe('');
      expect(await inventory(petId)).toEqual({ quantity: 4, status: 'available' });
      const gone = await request(t.http).get(`/store/orders/${order.id}`).set('X-API-Key', alice.secret).expect(404);
      expect(gone.body).toEqual(errorBody('ORDER_NOT_FOUND', 404));
      await request(t.http).delete(`/store/orders/${order.id}`).set('X-API-Key', alice.secret).expect(404);
      expect(await orderRows(petId)).toBe(0);
    });

    it('keeps a sold pet sold when an open order is cancelled', async () => {
      const petId = await pet(4);
      const { body: order } = await place(alice.secret, { petId, quantity: 1 }).expect(201);
      await request(t.http).patch(`/pets/${petId}`).set('X-API-Key', admin).send({ status: 'sold' }).expect(200);
      await request(t.http).delete(`/store/orders/${order.id}`).set('X-API-Key', alice.secret).expect(204);
      expect(await inventory(petId)).toEqual({ quantity: 4, status: 'sold' });
    });

    it('refuses a complete order with 409 ORDER_ALREADY_COMPLETE and returns no units', async () => {
      const petId = await pet(4);
      const { body: order } = await place(alice.secret, { petId, quantity: 1 }).expect(201);
      await request(t.http)
        .patch(`/store/orders/${order.id}`)
        .set('X-API-Key', alice.secret)
        .send({ complete: true })
        .expect(200);
      const res = await request(t.http).delete(`/store/orders/${order.id}`).set('X-API-Key', alice.secret).expect(409);
      expect(res.body).toEqual(errorBody('ORDER_ALREADY_COMPLETE', 409));
      expect(await inventory(petId)).toEqual({ quantity: 3, status: 'available' });
      await request(t.http).get(`/store/orders/${order.id}`).set('X-API-Key', alice.secret).expect(200);
    });

    it('answers an unknown order with 404 and a bad id with 400', async () => {
      const res = await request(t.http).delete('/store/orders/77777777').set('X-API-Key', admin).expect(404);
      expect(res.body).toEqual(errorBody('ORDER_NOT_FOUND', 404));
      await request(t.http).delete('/store/orders/-3').set('X-API-Key', admin).expect(400);
    });
  });

  describe('GET /store/orders (list)', () => {
    let dog: number;
    let cat: number;
    let carol: StoreKey;
    const ids: number[] = [];

    beforeAll(async () => {
      carol = await issueStoreKey(t, ['read', 'write']);
      dog = await pet(50);
      cat = await pet(50);
      for (const petId of [dog, cat, dog, cat, dog]) {
        ids.push((await place(carol.secret, { petId, quantity: 1 }).expect(201)).body.id);
      }
      await request(t.http).patch(`/store/orders/${ids[0]}`).set('X-API-Key', carol.secret).send({ complete: true });
      await request(t.http).patch(`/store/orders/${ids[3]}`).set('X-API-Key', carol.secret).send({ complete: true });
    });

    const list = async (query: string, key = carol.secret) => {
      const res = await request(t.http).get(`/store/orders${query}`).set('X-API-Key', key).expect(200);
      return res;
    };

    it('lists the caller’s orders by ascending id, as Order objects', async () => {
      const res = await list('');
      expect(res.body.map((o: { id: number }) => o.id)).toEqual(ids);
      expect(res.body[0]).toEqual({
        id: ids[0],
        petId: dog,
        quantity: 1,
        complete: true,
        shipDate: expect.any(String),
      });
      expect(res.body[1]).toEqual({ id: ids[1], petId: cat, quantity: 1, complete: false });
      expect(res.headers.link).toBeUndefined();
    });

    it('pages with limit and the next Link until the end', async () => {
      const seen: number[] = [];
      let url: string | undefined = '/store/orders?limit=2';
      let pages = 0;
      while (url) {
        const res = await request(t.http).get(url).set('X-API-Key', carol.secret).expect(200);
        expect(res.body.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.map((o: { id: number }) => o.id));
        const link = res.headers.link as string | undefined;
        if (link) expect(link).toMatch(/^<\/store\/orders\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
        url = link ? /^<([^>]+)>/.exec(link)![1] : undefined;
        pages++;
      }
      expect(seen).toEqual(ids);
      expect(pages).toBe(3);
    });

    it('keeps filters in the next Link', async () => {
      const res = await list(`?petId=${dog}&limit=1`);
      expect(res.headers.link).toContain(`petId=${dog}`);
      expect(res.body.map((o: { id: number }) => o.id)).toEqual([ids[0]]);
    });

    it('filters by petId and by complete', async () => {
      const idsOf = (res: request.Response) => res.body.map((o: { id: number }) => o.id);
      expect(idsOf(await list(`?petId=${dog}`))).toEqual([ids[0], ids[2], ids[4]]);
      expect(idsOf(await list(`?petId=${cat}`))).toEqual([ids[1], ids[3]]);
      expect(idsOf(await list('?complete=true'))).toEqual([ids[0], ids[3]]);
      expect(idsOf(await list('?complete=false'))).toEqual([ids[1], ids[2], ids[4]]);
      expect(idsOf(await list(`?petId=${dog}&complete=false`))).toEqual([ids[2], ids[4]]);
      expect(idsOf(await list('?petId=987654'))).toEqual([]);
    });

    it.each([
      'complete=yes',
      'complete=1',
      'petId=abc',
      'petId=0',
      'petId=-1',
      'limit=0',
      'limit=101',
      'limit=x',
      'cursor=not-a-cursor',
      'unknown=1',
    ])('refuses ?%s with 400 VALIDATION_FAILED', async (query) => {
      const res = await request(t.http).get(`/store/orders?${query}`).set('X-API-Key', carol.secret).expect(400);
      expect(res.body).toEqual(errorBody('VALIDATION_FAILED', 400));
    });
  });

  describe('ownership', () => {
    let petId: number;
    let alicesOrder: number;
    let bobsOrder: number;

    beforeAll(async () => {
      petId = await pet(20);
      alicesOrder = (await place(alice.secret, { petId, quantity: 2 }).expect(201)).body.id;
      bobsOrder = (await place(bob.secret, { petId, quantity: 3 }).expect(201)).body.id;
    });

    it("answers every operation on another key's order with 404 ORDER_NOT_FOUND and changes nothing", async () => {
      const attempts = [
        request(t.http).get(`/store/orders/${bobsOrder}`),
        request(t.http).patch(`/store/orders/${bobsOrder}`).send({ complete: true }),
        request(t.http).delete(`/store/orders/${bobsOrder}`),
      ];
      for (const attempt of attempts) {
        const res = await attempt.set('X-API-Key', alice.secret);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorBody('ORDER_NOT_FOUND', 404));
      }
      const read = await request(t.http).get(`/store/orders/${bobsOrder}`).set('X-API-Key', bob.secret).expect(200);
      expect(read.body).toEqual({ id: bobsOrder, petId, quantity: 3, complete: false });
      expect(await inventory(petId)).toEqual({ quantity: 15, status: 'available' });
    });

    it('answers someone else’s order exactly like a missing one', async () => {
      const other = await request(t.http).get(`/store/orders/${bobsOrder}`).set('X-API-Key', alice.secret);
      const missing = await request(t.http).get('/store/orders/99999999').set('X-API-Key', alice.secret);
      expect(other.status).toBe(missing.status);
      expect(other.body.code).toBe(missing.body.code);
      expect(other.body.message.replace(String(bobsOrder), 'N')).toBe(missing.body.message.replace('99999999', 'N'));
    });

    it('lists only the caller’s own orders; an admin key sees every key’s', async () => {
      const idsFor = async (key: string) =>
        (await request(t.http).get(`/store/orders?petId=${petId}`).set('X-API-Key', key).expect(200)).body.map(
          (o: { id: number }) => o.id,
        );
      expect(await idsFor(alice.secret)).toEqual([alicesOrder]);
      expect(await idsFor(bob.secret)).toEqual([bobsOrder]);
      expect(await idsFor(reader)).toEqual([]);
      expect(await idsFor(admin)).toEqual([alicesOrder, bobsOrder]);
      const all = await request(t.http).get('/store/orders?limit=100').set('X-API-Key', alice.secret).expect(200);
      const owners = await t.db.query('SELECT DISTINCT owner_key_id::int AS owner FROM orders WHERE id = ANY($1)', [
        all.body.map((o: { id: number }) => o.id),
      ]);
      expect(owners).toEqual([{ owner: alice.id }]);
    });

    it('lets an admin key read, complete and cancel any key’s orders', async () => {
      await request(t.http).get(`/store/orders/${bobsOrder}`).set('X-API-Key', admin).expect(200);
      const done = await request(t.http)
        .patch(`/store/orders/${bobsOrder}`)
        .set('X-API-Key', admin)
        .send({ complete: true })
        .expect(200);
      expect(done.body.complete).toBe(true);
      await request(t.http).delete(`/store/orders/${alicesOrder}`).set('X-API-Key', admin).expect(204);
      expect(await inventory(petId)).toEqual({ quantity: 17, status: 'available' });
      await request(t.http).get(`/store/orders/${alicesOrder}`).set('X-API-Key', alice.secret).expect(404);
    });
  });

  describe('Idempotency-Key', () => {
    let petId: number;

    beforeEach(async () => {
      petId = await pet(10);
    });

    it('answers the same key and body again with the same status and body, placing one order', async () => {
      const first = await place(alice.secret, { petId, quantity: 2 }, 'order-1').expect(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await place(alice.secret, { petId, quantity: 2 }, 'order-1').expect(201);
      expect(second.body).toEqual(first.body);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.headers.location).toBe(first.headers.location);
      expect(await orderRows(petId)).toBe(1);
      expect(await inventory(petId)).toEqual({ quantity: 8, status: 'available' });
    });

    it('treats the same fields in another order as the same body', async () => {
      const first = await place(alice.secret, { petId, quantity: 1, shipDate: '2027-01-01T00:00:00Z' }, 'k-order');
      const second = await place(alice.secret, { shipDate: '2027-01-01T00:00:00Z', quantity: 1, petId }, 'k-order');
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(await orderRows(petId)).toBe(1);
    });

    it('replays the first answer even after the order was completed', async () => {
      const first = await place(alice.secret, { petId, quantity: 1 }, 'then-completed').expect(201);
      await request(t.http)
        .patch(`/store/orders/${first.body.id}`)
        .set('X-API-Key', alice.secret)
        .send({ complete: true })
        .expect(200);
      const again = await place(alice.secret, { petId, quantity: 1 }, 'then-completed').expect(201);
      expect(again.body).toEqual(first.body);
    });

    it('refuses the same key with a different body with 409 IDEMPOTENCY_KEY_REUSED', async () => {
      await place(alice.secret, { petId, quantity: 2 }, 'order-2').expect(201);
      const res = await place(alice.secret, { petId, quantity: 3 }, 'order-2').expect(409);
      expect(res.body).toEqual(errorBody('IDEMPOTENCY_KEY_REUSED', 409));
      expect(await orderRows(petId)).toBe(1);
      expect((await inventory(petId)).quantity).toBe(8);
    });

    it('scopes keys to the API key: the same string from another key places a new order', async () => {
      const a = await place(alice.secret, { petId, quantity: 1 }, 'shared-key').expect(201);
      const b = await place(bob.secret, { petId, quantity: 1 }, 'shared-key').expect(201);
      expect(b.body.id).not.toBe(a.body.id);
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect(await orderRows(petId)).toBe(2);
      const c = await place(bob.secret, { petId, quantity: 5 }, 'shared-key').expect(409);
      expect(c.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    it('replays a first 409 INSUFFICIENT_STOCK as 409 even after restock', async () => {
      const first = await place(alice.secret, { petId, quantity: 11 }, 'too-many').expect(409);
      expect(first.body).toEqual(errorBody('INSUFFICIENT_STOCK', 409));
      await setStock(petId, 100);
      const again = await place(alice.secret, { petId, quantity: 11 }, 'too-many');
      expect({ status: again.status, body: again.body }).toEqual({ status: 409, body: first.body });
      expect(await orderRows(petId)).toBe(0);
      expect((await inventory(petId)).quantity).toBe(100);
    });

    it('replays a first 422 PET_NOT_FOUND as 422 even once a pet with that id exists', async () => {
      const first = await place(alice.secret, { petId: 55555555, quantity: 1 }, 'no-such-pet').expect(422);
      expect(first.body).toEqual(errorBody('PET_NOT_FOUND', 422));
      // The id now names a pet in stock (inserted directly: ids come from a sequence).
      await t.db.query(`INSERT INTO pets (id, name, category_id, status) VALUES (55555555, 'Late', $1, 'available')`, [
        categoryId,
      ]);
      await t.db.query('INSERT INTO inventory (pet_id, quantity) VALUES (55555555, 10)');
      const again = await place(alice.secret, { petId: 55555555, quantity: 1 }, 'no-such-pet');
      expect({ status: again.status, body: again.body }).toEqual({ status: 422, body: first.body });
      expect(await orderRows(55555555)).toBe(0);
    });

    it('remembers the key of a refusal in the database, as the line the rule refused it on', async () => {
      const { quantity } = await inventory(petId);
      await place(alice.secret, { petId, quantity: quantity + 1 }, 'refusal-stored').expect(409);
      const rows = await t.db.query(
        `SELECT outcome FROM idempotency_keys WHERE key = 'refusal-stored' AND api_key_id = $1`,
        [alice.id],
      );
      expect(rows).toEqual([{ outcome: { kind: 'refused', line: { quantity, status: 'available' } } }]);
    });

    it('does not remember a request refused by validation', async () => {
      await place(alice.secret, { petId, quantity: 0 }, 'invalid-first').expect(400);
      const res = await place(alice.secret, { petId, quantity: 1 }, 'invalid-first').expect(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });

    it('ignores records older than 24 hours: the same key places a new order', async () => {
      const first = await place(alice.secret, { petId, quantity: 1 }, 'old-key').expect(201);
      await t.db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-key' AND api_key_id = $1`,
        [alice.id],
      );
      const second = await place(alice.secret, { petId, quantity: 1 }, 'old-key').expect(201);
      expect(second.body.id).not.toBe(first.body.id);
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expect(await orderRows(petId)).toBe(2);
      // ...and the key is live again from now on, with the new body.
      const third = await place(alice.secret, { petId, quantity: 1 }, 'old-key').expect(201);
      expect(third.body.id).toBe(second.body.id);
      await t.db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-key' AND api_key_id = $1`,
        [alice.id],
      );
      await place(alice.secret, { petId, quantity: 2 }, 'old-key').expect(201);
    });

    it('keeps records younger than 24 hours', async () => {
      const first = await place(alice.secret, { petId, quantity: 1 }, 'young-key').expect(201);
      await t.db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '23 hours' WHERE key = 'young-key' AND api_key_id = $1`,
        [alice.id],
      );
      const second = await place(alice.secret, { petId, quantity: 1 }, 'young-key').expect(201);
      expect(second.body).toEqual(first.body);
      expect(second.headers['idempotent-replayed']).toBe('true');
    });

    it('IdempotencyJanitor.sweep() deletes expired records and only those', async () => {
      await place(alice.secret, { petId, quantity: 1 }, 'sweep-old').expect(201);
      await place(alice.secret, { petId, quantity: 1 }, 'sweep-young').expect(201);
      await t.db.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'sweep-old' AND api_key_id = $1`,
        [alice.id],
      );
      const [{ expired }] = await t.db.query(
        `SELECT count(*)::int AS expired FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`,
      );
      const removed = await t.app.get(IdempotencyJanitor).sweep();
      expect(removed).toBe(expired);
      const left = await t.db.query(
        `SELECT key FROM idempotency_keys WHERE api_key_id = $1 AND key LIKE 'sweep-%' ORDER BY key`,
        [alice.id],
      );
      expect(left).toEqual([{ key: 'sweep-young' }]);
      const [{ stale }] = await t.db.query(
        `SELECT count(*)::int AS stale FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`,
      );
      expect(stale).toBe(0);
    });
  });
});
