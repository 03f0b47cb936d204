import fc from 'fast-check';
import request from 'supertest';
import { putStock, stockedPet, storeSetup } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The codes API.md section 7 allows per status. */
const CODES: Readonly<Record<number, readonly string[]>> = {
  400: ['VALIDATION_FAILED', 'MALFORMED_JSON'],
  401: ['UNAUTHENTICATED', 'INVALID_API_KEY'],
  403: ['INSUFFICIENT_SCOPE'],
  404: ['PET_NOT_FOUND', 'CATEGORY_NOT_FOUND', 'ORDER_NOT_FOUND', 'API_KEY_NOT_FOUND', 'ROUTE_NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  409: [
    'CATEGORY_NAME_TAKEN',
    'CATEGORY_IN_USE',
    'PET_HAS_ORDERS',
    'PET_NOT_AVAILABLE',
    'INSUFFICIENT_STOCK',
    'ORDER_ALREADY_COMPLETE',
    'IDEMPOTENCY_KEY_REUSED',
  ],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  422: ['CATEGORY_NOT_FOUND', 'PET_NOT_FOUND'],
  429: ['RATE_LIMIT_EXCEEDED', 'API_KEY_BANNED'],
};

/** Never a 5xx; every failure is exactly the Error shape with a contract code. */
function wellBehaved(res: request.Response, what: string): void {
  const context = `${what} -> ${res.status} ${JSON.stringify(res.body)}`;
  expect([context, res.status < 500]).toEqual([context, true]);
  if (res.status >= 400) {
    expect([context, res.headers['content-type']]).toEqual([context, expect.stringMatching(/^application\/json/)]);
    expect([context, res.body]).toEqual([
      context,
      { code: expect.any(String), message: expect.any(String), status: res.status },
    ]);
    expect([context, CODES[res.status]]).toEqual([context, expect.arrayContaining([res.body.code])]);
    expect(res.body.message).not.toMatch(/SELECT|INSERT|UPDATE|DELETE FROM|QueryFailedError|at .+\.(ts|js):\d+/);
  }
}

/** Values of every JSON kind, biased towards the edges of the fields' ranges. */
const edgyNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, 1, -1, 1000, 1001, 1_000_000, 1_000_001, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e308, 0.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const jsonScalar = fc.oneof(
  edgyNumber,
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  // fast-check 4 also makes Invalid Dates unless told not to, and toISOString() throws on them.
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const jsonValue = fc.oneof(
  { depthSize: 'small' },
  jsonScalar,
  fc.array(jsonScalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), jsonScalar, { maxKeys: 3 }),
);
const orderField = fc.constantFrom(
  'petId',
  'quantity',
  'shipDate',
  'id',
  'complete',
  'status',
  '__proto__',
  'constructor',
);
/** Bodies shaped like the store's, with random or missing fields, plus entirely random JSON. */
const body = (fields: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.dictionary(fields, jsonValue, { maxKeys: 5 }),
    fc.dictionary(fc.oneof(fields, fc.string({ maxLength: 10 })), jsonValue, { maxKeys: 4 }),
    fc.jsonValue({ maxDepth: 3 }),
  );
const pathSegment = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary-ascii', maxLength: 20 }),
  fc.constantFrom('0', '-1', '1.5', '1e3', '0x1f', '00', '9223372036854775807', '9223372036854775808', '%', '..', ' 1'),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);

describe('store fuzzing (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let writer: string;
  let petId: number;
  let openOrders: number[];
  const statuses: Record<number, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    const setup = await storeSetup(t, 'Reptiles');
    ({ admin, writer } = setup);
    petId = await stockedPet(t, admin, 1_000_000, { name: 'Liz', categoryId: setup.categoryId });
    openOrders = [];
    for (let i = 0; i < 5; i++) {
      openOrders.push(
        (await request(t.http).post('/store/orders').set('X-API-Key', writer).send({ petId, quantity: 1 }).expect(201))
          .body.id,
      );
    }
  });
  afterAll(() => {
    console.log(`[store-fuzz] statuses seen: ${JSON.stringify(statuses)}`);
    return t.close();
  });

  const seen = (res: request.Response) => {
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  };

  it('POST /store/orders: random bodies never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        body(orderField),
        fc.option(fc.oneof(fc.constant(petId), fc.integer({ min: 1, max: 1000 })), { nil: undefined }),
        async (raw, realPet) => {
          const payload =
            raw !== null && typeof raw === 'object' && !Array.isArray(raw) && realPet !== undefined
              ? { ...raw, petId: realPet }
              : raw;
          const res = await request(t.http)
            .post('/store/orders')
            .set('X-API-Key', writer)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(payload));
          seen(res);
          wellBehaved(res, `POST /store/orders ${JSON.stringify(payload)}`);
          if (res.status === 201) {
            expect(res.body).toEqual({
              id: expect.any(Number),
              petId: expect.any(Number),
              quantity: expect.any(Number),
              complete: false,
              ...(res.body.shipDate !== undefined ? { shipDate: expect.stringMatching(/Z$/) } : {}),
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('POST /store/orders: random Idempotency-Key headers never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 }),
        fc.integer({ min: 1, max: 3 }),
        async (key, quantity) => {
          const res = await request(t.http)
            .post('/store/orders')
            .set('X-API-Key', writer)
            .set('Idempotency-Key', key)
            .send({ petId, quantity });
          seen(res);
          wellBehaved(res, `POST /store/orders Idempotency-Key ${JSON.stringify(key)}`);
          const trimmed = key.trim();
          if (trimmed.length === 0 || trimmed.length > 255 || /\s/.test(trimmed)) expect(res.status).toBe(400);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('PATCH /store/orders/{id}: random bodies never cause a 5xx', async () => {
    const fields = fc.constantFrom('complete', 'shipDate', 'quantity', 'petId', 'id');
    await fc.assert(
      fc.asyncProperty(body(fields), fc.constantFrom(...openOrders, 99999999), async (payload, orderId) => {
        const res = await request(t.http)
          .patch(`/store/orders/${orderId}`)
          .set('X-API-Key', writer)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(payload));
        seen(res);
        wellBehaved(res, `PATCH /store/orders/${orderId} ${JSON.stringify(payload)}`);
        if (res.status === 200) expect(res.body).toEqual(expect.objectContaining({ id: orderId, complete: true }));
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it('PUT /store/inventory/{id}: random bodies never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        body(fc.constantFrom('quantity', 'status', 'petId')),
        fc.constantFrom(petId, 99999999),
        async (payload, target) => {
          const res = await request(t.http)
            .put(`/store/inventory/${target}`)
            .set('X-API-Key', admin)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(payload));
          seen(res);
          wellBehaved(res, `PUT /store/inventory/${target} ${JSON.stringify(payload)}`);
          if (res.status === 200) {
            expect(res.body).toEqual({ petId: target, quantity: expect.any(Number), status: expect.any(String) });
            expect(res.body.quantity).toBeGreaterThanOrEqual(0);
            expect(res.body.quantity).toBeLessThanOrEqual(1_000_000);
          }
        },
      ),
      { numRuns: 200 },
    );
    // Leave stock for the other properties.
    await putStock(t, admin, petId, 1_000_000);
  }, 120_000);

  it('random raw bodies (not JSON, wrong media types) never cause a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/merge-patch+json',
        ),
        fc.constantFrom(
          ['post', '/store/orders'],
          ['patch', () => `/store/orders/${openOrders[0]}`],
          ['put', () => `/store/inventory/${petId}`],
        ),
        async (text, type, [method, path]) => {
          const url = typeof path === 'function' ? path() : path;
          const res = await request(t.http)[method](url).set('X-API-Key', admin).set('Content-Type', type).send(text);
          seen(res);
          wellBehaved(res, `${method.toUpperCase()} ${url} (${type}) ${JSON.stringify(text)}`);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('random path ids on every store operation never cause a 5xx', async () => {
    const operation = fc.constantFrom(
      ['get', '/store/orders/'],
      ['patch', '/store/orders/'],
      ['delete', '/store/orders/'],
      ['get', '/store/inventory/'],
      ['put', '/store/inventory/'],
    );
    await fc.assert(
      fc.asyncProperty(operation, pathSegment, async ([method, prefix], segment) => {
        const url = prefix + encodeURIComponent(segment);
        let req = request(t.http)[method](url).set('X-API-Key', admin);
        if (method === 'patch') req = req.send({ complete: true });
        if (method === 'put') req = req.send({ quantity: 5 });
        const res = await req;
        seen(res);
        wellBehaved(res, `${method.toUpperCase()} ${url}`);
      }),
      { numRuns: 300 },
    );
    await putStock(t, admin, petId, 1_000_000);
  }, 120_000);

  it('random query strings on the store lists never cause a 5xx', async () => {
    const name = fc.constantFrom('limit', 'cursor', 'petId', 'complete', 'status', 'id', 'limit[]', 'status[0]', 'x');
    const value = fc.oneof(fc.string({ maxLength: 80 }), pathSegment, fc.constantFrom('true', 'false', 'sold', ''));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/store/orders', '/store/inventory'),
        fc.array(fc.tuple(name, value), { maxLength: 4 }),
        async (path, params) => {
          const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
          const url = query ? `${path}?${query}` : path;
          const res = await request(t.http).get(url).set('X-API-Key', writer);
          seen(res);
          wellBehaved(res, `GET ${url}`);
          if (res.status === 200) expect(Array.isArray(res.body)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('raw, unencoded query and path garbage never causes a 5xx', async () => {
    const garbage = fc.string({
      unit: fc.constantFrom('%', '&', '=', '[', ']', '.', 'a', '1', '+', ';', '#', '?'),
      maxLength: 20,
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/store/orders', '/store/inventory'), garbage, async (path, junk) => {
        const res = await request(t.http).get(`${path}?${junk}`).set('X-API-Key', writer);
        seen(res);
        wellBehaved(res, `GET ${path}?${junk}`);
        const one = await request(t.http)
          .get(`${path}/${junk.replace(/[?#]/g, '')}`)
          .set('X-API-Key', writer);
        seen(one);
        wellBehaved(one, `GET ${path}/${junk}`);
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
