import fc from 'fast-check';
import request from 'supertest';
import { errorShapeProblem, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Property-based tests over HTTP: whatever a client sends — any JSON, wrong types,
 * huge numbers, unicode, extra fields, any query or path text — the service never
 * answers 5xx, and every failure is exactly the Error shape with `status` equal to
 * the HTTP status. Where the contract fixes the answer (validation of NewPet and
 * NewCategory, path ids, `limit`), a model of the rules predicts it.
 */

const RUNS = 80;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

// ---- arbitraries ----------------------------------------------------------------------

const TRICKY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'null',
  'true',
  '1',
  '-1',
  '1e309',
  'NaN',
  '__proto__',
  'constructor',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE pets; --",
  '\u202e\u0301\ufeff',
  '🐶'.repeat(60),
  'x'.repeat(101),
  'é'.repeat(600),
];

/** Strings of every kind: ASCII, full unicode (incl. control characters), graphemes, classics. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.constantFrom(...TRICKY_STRINGS),
);

const anyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.maxSafeInteger(),
  fc.constantFrom(0, -0, -1, 0.5, 1.5, 2 ** 31, 2 ** 53 + 2, 2 ** 63, 1e308, -1e308, 5e-324),
);

const anyScalar = fc.oneof(anyString, anyNumber, fc.boolean(), fc.constant(null));
const anyJson = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
const anyValue = fc.oneof(
  { weight: 4, arbitrary: anyScalar },
  { weight: 2, arbitrary: anyJson },
  { weight: 1, arbitrary: fc.array(anyScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(anyString, anyJson, { maxKeys: 3 }) },
);

/** JSON texts that JavaScript values cannot express: numbers beyond double precision, duplicate keys. */
function rawTexts(fields: readonly string[]): fc.Arbitrary<string> {
  const bigNumber = fc.stringMatching(/^-?[1-9]\d{15,40}(\.\d{1,20})?([eE][+-]?\d{1,4})?$/);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...fields), bigNumber).map(([field, n]) => `{"${field}":${n}}`),
    fc
      .tuple(fc.constantFrom(...fields), anyScalar, anyScalar)
      .map(([field, a, b]) => `{"${field}":${JSON.stringify(a)},"${field}":${JSON.stringify(b)}}`),
    fc.constantFrom('{"a":1e999999}', '{"name":"\\ud800"}', '{"name":"\\u0000"}', '{}', '[]', '""', '0', 'null'),
  );
}

/**
 * Bodies for an endpoint whose fields are `fields` (name → a plausible value): the
 * endpoint's own fields with plausible or arbitrary values plus extra ones, arbitrary
 * objects, any JSON value at all, and raw texts. As JSON text.
 */
function bodies(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<string> {
  const own = fc.record(
    Object.fromEntries(Object.entries(fields).map(([name, plausible]) => [name, fc.oneof(plausible, anyValue)])),
    { requiredKeys: [] },
  );
  const withExtras = fc
    .tuple(own, fc.dictionary(anyString, anyValue, { maxKeys: 2 }))
    .map(([body, extra]) => ({ ...extra, ...body }));
  return fc.oneof(
    { weight: 4, arbitrary: own.map((body) => JSON.stringify(body)) },
    { weight: 2, arbitrary: withExtras.map((body) => JSON.stringify(body)) },
    { weight: 1, arbitrary: fc.dictionary(anyString, anyValue, { maxKeys: 5 }).map((body) => JSON.stringify(body)) },
    { weight: 1, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: rawTexts(Object.keys(fields)) },
  );
}

const statusArb = fc.constantFrom('available', 'pending', 'sold');
const planArb = fc.constantFrom('free', 'pro', 'business', 'enterprise');
const scopesArb = fc.subarray(['read', 'write', 'admin'], { minLength: 1 });
const limitsArb = fc.record({ perMinute: fc.integer({ min: 1, max: 2e9 }), perDay: fc.integer({ min: 1, max: 2e9 }) });
const nameArb = fc.string({ minLength: 1, maxLength: 100 });

/** URL-safe texts for paths and queries: any string (percent-encoded) or raw text with stray `%`. */
const urlText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom(...TRICKY_STRINGS.filter((s) => s !== '')).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9%._~-]{1,24}$/),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);

// ---- the model of NewPet / NewCategory validation ------------------------------------

/** A generated field: its value, and whether the contract accepts it (`absent`: omitted). */
interface Gen {
  readonly value?: unknown;
  readonly valid: boolean;
  readonly absent?: boolean;
}

const valid = (value: unknown): Gen => ({ value, valid: true });
const invalid = (value: unknown): Gen => ({ value, valid: false });
const absent = (validWhenAbsent: boolean): fc.Arbitrary<Gen> => fc.constant({ valid: validWhenAbsent, absent: true });

/** Values that are not strings at all. */
const nonString = fc.oneof(
  anyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object(),
);

function nameGen(): fc.Arbitrary<Gen> {
  return fc.oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 90 }).map(valid),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }).map(valid),
    fc.constant(invalid('')),
    fc.string({ unit: 'grapheme-ascii', minLength: 101, maxLength: 140 }).map(invalid),
    nonString.map(invalid),
    absent(false),
  );
}

const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Unknown fields, named so a message can name them (prototype names are tested separately). */
function extrasGen(known: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const key = fc
    .stringMatching(/^[a-z][A-Za-z0-9]{0,11}$/)
    .filter((k) => !known.includes(k) && !PROTOTYPE_NAMES.has(k));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.dictionary(key, anyJson, { minKeys: 1, maxKeys: 2 }) },
  );
}

function assemble(fields: Record<string, Gen>, extras: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...extras };
  for (const [name, gen] of Object.entries(fields)) if (!gen.absent) body[name] = gen.value;
  return body;
}

/** 400 VALIDATION_FAILED whose message names each of `bad` (the body is shown when it fails). */
function expectNamesEveryBadField(body: unknown, res: request.Response, bad: readonly string[]): void {
  expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_FAILED' });
  for (const field of bad) expect(res.body.message).toMatch(new RegExp(`\\b${field}\\b`));
}

function invalidFields(fields: Record<string, Gen>, extras: Record<string, unknown>): string[] {
  return [...Object.keys(fields).filter((name) => !fields[name].valid), ...Object.keys(extras)];
}

// ---- the suite ---------------------------------------------------------------------

describe('fuzzing the HTTP surface (e2e, property-based)', () => {
  let t: TestApp;
  let key: string;
  let categoryId: number;
  let petId: number;
  let keyId: number;
  let unique = 0;

  const api = () => request(t.http);

  function send(method: Method, path: string, body?: string, contentType = 'application/json') {
    const req = api()[method](path).set(KEY, key);
    return body === undefined ? req : req.set('Content-Type', contentType).send(body);
  }

  /** Never 5xx; every 4xx exactly the Error shape. */
  function expectSane(res: request.Response, what: string): void {
    const problem = res.status >= 500 ? `HTTP ${res.status}` : res.status >= 400 ? errorShapeProblem(res) : null;
    expect({ what, problem, answer: `${res.status} ${res.text.slice(0, 200)}` }).toEqual({
      what,
      problem: null,
      answer: expect.any(String),
    });
  }

  function expectStatusIn(res: request.Response, statuses: number[], what: string): void {
    const answer = `${res.status} ${res.text.slice(0, 200)}`;
    expect({ what, expected: statuses, answer, ok: statuses.includes(res.status) }).toEqual({
      what,
      expected: statuses,
      answer,
      ok: true,
    });
  }

  /** Runs a property whose only input is one generated value. */
  const check = <T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, numRuns = RUNS) =>
    fc.assert(fc.asyncProperty(arb, predicate), { numRuns });

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    // Fixtures get ids far from small numbers, so random path ids cannot reach (and delete) them.
    for (const table of ['pets', 'categories', 'api_keys']) {
      await t.db.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), 5000000)`, [table]);
    }
    key = await t.key(['read', 'write', 'admin'], 'enterprise');
    const category = await api().post('/categories').set(KEY, key).send({ name: 'Fuzz fixtures' }).expect(201);
    categoryId = (category.body as { id: number }).id;
    const pet = await api().post('/pets').set(KEY, key).send({ name: 'Fuzzy', categoryId }).expect(201);
    petId = (pet.body as { id: number }).id;
    const issued = await api()
      .post('/admin/api-keys')
      .set(KEY, key)
      .send({ name: 'fuzz target', plan: 'free', scopes: ['read'] })
      .expect(201);
    keyId = (issued.body as { id: number }).id;
  });
  afterAll(() => t.close());

  describe('request bodies: never 5xx, failures in the Error shape', () => {
    const petFields = () => ({
      name: nameArb,
      categoryId: fc.oneof(fc.constant(categoryId), fc.integer({ min: 1 })),
      status: statusArb,
    });
    const categoryFields = () => ({ name: nameArb, description: fc.string({ maxLength: 520 }) });
    const keyFields = () => ({ name: nameArb, plan: planArb, scopes: scopesArb, limits: limitsArb });
    const keyUpdateFields = () => ({ plan: planArb, scopes: scopesArb, limits: limitsArb });

    const endpoints: Array<[string, string, () => string, () => Record<string, fc.Arbitrary<unknown>>]> = [
      ['POST', '/pets', () => '/pets', petFields],
      ['PUT', '/pets/{petId}', () => `/pets/${petId}`, petFields],
      ['PATCH', '/pets/{petId}', () => `/pets/${petId}`, petFields],
      ['POST', '/categories', () => '/categories', categoryFields],
      ['PUT', '/categories/{categoryId}', () => `/categories/${categoryId}`, categoryFields],
      ['POST', '/admin/api-keys', () => '/admin/api-keys', keyFields],
      ['PATCH', '/admin/api-keys/{keyId}', () => `/admin/api-keys/${keyId}`, keyUpdateFields],
    ];

    it.each(endpoints)('%s %s', async (method, _, path, fields) => {
      await check(bodies(fields()), async (text) => {
        const res = await send(method.toLowerCase() as Method, path(), text);
        expectSane(res, text);
        if (res.status < 300) expect(typeof res.body).toBe('object');
      });
    });

    it('any Content-Type with a valid body', async () => {
      const type = fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/JSON',
          'application/json; charset=utf-8',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'application/merge-patch+json',
          'application/vnd.api+json',
          'text/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'application/octet-stream',
          '*/*',
          'application/',
          ';',
        ),
        fc.stringMatching(/^[a-z]{1,10}\/[a-z0-9.+-]{1,20}(; ?[a-z]{1,8}=[A-Za-z0-9-]{1,10})?$/),
      );
      await check(type, async (contentType) => {
        const body = JSON.stringify({ name: `Typed ${++unique}` });
        const res = await send('post', '/categories', body, contentType);
        expectSane(res, contentType);
        expectStatusIn(res, [201, 400, 415], contentType);
      });
    });
  });

  describe('the NewPet and NewCategory rules, predicted by a model', () => {
    it('POST /pets answers 201, 400 naming every bad field, or 422, as the contract says', async () => {
      const categoryGen = fc.oneof(
        fc.constant({ value: categoryId, valid: true, exists: true }),
        fc.integer({ min: 10_000_000, max: 2 ** 31 }).map((value) => ({ value, valid: true, exists: false })),
        fc.constantFrom(0, -1, -categoryId, 1.5, categoryId + 0.5).map(invalid),
        fc.constant(invalid(String(categoryId))),
        fc.oneof(fc.boolean(), fc.constant(null), fc.string(), fc.object()).map(invalid),
        absent(false),
      );
      const statusGen = fc.oneof(
        statusArb.map(valid),
        absent(true),
        fc
          .oneof(fc.string(), fc.constantFrom('AVAILABLE', 'Sold', ' pending', 'available '))
          .filter((s) => !['available', 'pending', 'sold'].includes(s))
          .map(invalid),
        fc.oneof(fc.constant(null), fc.integer(), fc.constant(['available'])).map(invalid),
      );
      const input = fc.record({
        name: nameGen(),
        categoryId: categoryGen,
        status: statusGen,
        extras: extrasGen(['name', 'categoryId', 'status']),
      });

      await check(input, async ({ extras, ...fields }) => {
        const body = assemble(fields, extras);
        const res = await send('post', '/pets', JSON.stringify(body));
        expectSane(res, JSON.stringify(body));
        const bad = invalidFields(fields, extras);
        if (bad.length > 0) {
          expectNamesEveryBadField(body, res, bad);
        } else if (!(fields.categoryId as { exists?: boolean }).exists) {
          expect({ body, status: res.status, code: res.body.code }).toEqual({
            body,
            status: 422,
            code: 'CATEGORY_NOT_FOUND',
          });
        } else {
          const expected = { id: expect.any(Number), name: body.name, categoryId, status: body.status ?? 'available' };
          expect({ body, status: res.status, pet: res.body }).toEqual({ body, status: 201, pet: expected });
          const read = await api()
            .get(`/pets?id=${(res.body as { id: number }).id}`)
            .set(KEY, key)
            .expect(200);
          expect(read.body).toEqual([res.body]);
        }
      });
    });

    it('POST /categories answers 201 or 400 naming every bad field, as the contract says', async () => {
      const descriptionGen = fc.oneof(
        fc.string({ unit: 'grapheme-ascii', maxLength: 500 }).map(valid),
        fc.string({ unit: 'grapheme-ascii', minLength: 501, maxLength: 540 }).map(invalid),
        nonString.map(invalid),
        absent(true),
      );
      const input = fc.record({
        name: nameGen(),
        description: descriptionGen,
        extras: extrasGen(['name', 'description']),
      });

      await check(input, async ({ extras, ...fields }) => {
        const body = assemble(fields, extras);
        // Valid names get a unique suffix, so uniqueness (409) never interferes.
        if (fields.name.valid) body.name = `${String(body.name)}#${++unique}`;
        const res = await send('post', '/categories', JSON.stringify(body));
        expectSane(res, JSON.stringify(body));
        const bad = invalidFields(fields, extras);
        if (bad.length > 0) {
          expectNamesEveryBadField(body, res, bad);
        } else {
          expect({ body, status: res.status, category: res.body }).toEqual({
            body,
            status: 201,
            category: { id: expect.any(Number), ...body },
          });
          const read = await api()
            .get(`/categories/${(res.body as { id: number }).id}`)
            .set(KEY, key)
            .expect(200);
          expect(read.body).toEqual(res.body);
        }
      });
    });

    it('names and descriptions with any code points are refused (400) or stored exactly, never 5xx', async () => {
      const unit = fc.oneof(
        { weight: 8, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
        { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u0007', '\u2028') },
      );
      const text = fc.string({ unit, minLength: 1, maxLength: 30 });
      await check(fc.tuple(text, text, fc.boolean()), async ([name, description, asPet]) => {
        const path = asPet ? '/pets' : '/categories';
        const body = asPet ? { name, categoryId } : { name: `${name}#${++unique}`, description };
        const res = await send('post', path, JSON.stringify(body));
        expectSane(res, JSON.stringify(body));
        expectStatusIn(res, [201, 400], JSON.stringify(body));
        if (res.status === 201) {
          const id = (res.body as { id: number }).id;
          const read = asPet
            ? ((await api().get(`/pets?id=${id}`).set(KEY, key)).body as unknown[])[0]
            : (await api().get(`/categories/${id}`).set(KEY, key)).body;
          // As JSON text, lone surrogates show as escapes: a readable difference.
          expect(JSON.stringify(read)).toBe(JSON.stringify(res.body));
          expect(JSON.stringify(res.body)).toContain(JSON.stringify(body.name).slice(1, -1));
        }
      });
    });
  });

  describe('query parameters: never 5xx, 200 or 400 in the Error shape', () => {
    const lists: Array<[string, readonly string[]]> = [
      ['/pets', ['limit', 'cursor', 'status', 'categoryId', 'id']],
      ['/categories', ['limit', 'cursor']],
      ['/admin/api-keys', ['limit', 'cursor']],
    ];

    it.each(lists)('GET %s with random values of its parameters (and others)', async (path, params) => {
      const pair = fc.tuple(
        fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...params) }, { weight: 1, arbitrary: urlText }),
        urlText,
      );
      await check(fc.array(pair, { minLength: 1, maxLength: 5 }), async (pairs) => {
        const url = `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
        const res = await send('get', url);
        expectSane(res, url);
        expectStatusIn(res, [200, 400], url);
        if (res.status === 200) expect(Array.isArray(res.body)).toBe(true);
      });
    });

    it('limit: 200 with at most limit items exactly when it is an integer in 1..100', async () => {
      await check(fc.integer({ min: -200, max: 300 }), async (limit) => {
        const res = await send('get', `/pets?limit=${limit}`);
        expectSane(res, String(limit));
        if (limit >= 1 && limit <= 100) {
          expect(res.status).toBe(200);
          expect((res.body as unknown[]).length).toBeLessThanOrEqual(limit);
        } else {
          expect(res.status).toBe(400);
          expect(res.body.message).toMatch(/\blimit\b/);
        }
      });
    });
  });

  describe('path parameters: never 5xx; not a positive int64 → 400', () => {
    const INT64_MAX = 2n ** 63n - 1n;
    const canonical = (segment: string) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return false;
      }
      return /^[1-9]\d{0,18}$/.test(decoded) && BigInt(decoded) <= INT64_MAX;
    };
    const segment = fc.oneof(
      urlText,
      fc.bigInt({ min: 1n, max: INT64_MAX }).map(String),
      fc.constantFrom('0', '00', '-0', '+1', '1e3', '0x10', '1.0', '%201', '1%20', '9223372036854775808'),
    );

    const targets: Array<[Method, string, () => unknown]> = [
      ['get', '/pets/', () => undefined],
      ['put', '/pets/', () => ({ name: 'Path fuzz', categoryId })],
      ['patch', '/pets/', () => ({ status: 'pending' })],
      ['delete', '/pets/', () => undefined],
      ['get', '/categories/', () => undefined],
      ['put', '/categories/', () => ({ name: `Path fuzz ${++unique}` })],
      ['delete', '/categories/', () => undefined],
      ['patch', '/admin/api-keys/', () => ({ plan: 'pro' })],
      ['delete', '/admin/api-keys/', () => undefined],
    ];

    it.each(targets)('%s %s{random}', async (method, prefix, body) => {
      // Dot segments are resolved by the client's URL parser before they are sent.
      const segments = segment.filter((s) => s !== '' && !/^(\.|%2e){1,2}$/i.test(s));
      await check(
        segments,
        async (s) => {
          const payload = body();
          const url = prefix + s;
          const res = await send(method, url, payload === undefined ? undefined : JSON.stringify(payload));
          expectSane(res, `${method} ${url}`);
          expectStatusIn(res, canonical(s) ? [200, 204, 404] : [400], `${method} ${url}`);
        },
        60,
      );
    });
  });

  describe('API keys', () => {
    it('random X-API-Key values answer 401 in the Error shape (or 429 once the anonymous quota is spent)', async () => {
      const header = fc.oneof(
        fc.stringMatching(/^[\x21-\x7e]{1,80}$/),
        fc.stringMatching(/^psk_[A-Za-z0-9_-]{0,60}$/),
        fc.constant(`psk_${'A'.repeat(300)}`),
      );
      await check(
        header,
        async (value) => {
          const res = await api().get('/pets').set(KEY, value);
          expectSane(res, value);
          expectStatusIn(res, [401, 429], value);
        },
        40,
      );
    });
  });
});
