import request from 'supertest';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

/** RFC 9745: `@` and Unix seconds. */
const deprecationHeader = (iso: string) => `@${Date.parse(iso) / 1000}`;
/** RFC 9110 IMF-fixdate, e.g. `Wed, 30 Jun 2027 00:00:00 GMT`. */
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const successorLink = (id: number | string) => `</pets?id=${id}>; rel="successor-version"`;

/** Runs against one app: a category and a pet to read. */
async function seed(t: TestApp): Promise<{ key: string; pet: Pet }> {
  const key = await t.key(['read', 'write'], 'enterprise');
  const category = await request(t.http)
    .post('/categories')
    .set(KEY, key)
    .send({ name: `Dogs ${Date.now()}` });
  expect(category.status).toBe(201);
  const pet = await request(t.http)
    .post('/pets')
    .set(KEY, key)
    .send({ name: 'Rex', categoryId: (category.body as { id: number }).id });
  expect(pet.status).toBe(201);
  return { key, pet: pet.body as Pet };
}

describe('GET /pets/{petId} deprecation (e2e)', () => {
  describe('with the default dates (deprecated 2026-11-01, sunset 2027-06-30)', () => {
    let t: TestApp;
    let key: string;
    let pet: Pet;

    beforeAll(async () => {
      t = await createTestApp();
      await t.reset();
      ({ key, pet } = await seed(t));
    });
    afterAll(() => t.close());

    it('still answers 200 with the pet', async () => {
      const res = await request(t.http).get(`/pets/${pet.id}`).set(KEY, key).expect(200);
      expect(res.body).toEqual(pet);
    });

    it('announces the deprecation, the sunset and the successor in headers', async () => {
      const res = await request(t.http).get(`/pets/${pet.id}`).set(KEY, key).expect(200);
      expect(res.headers.deprecation).toBe(deprecationHeader('2026-11-01T00:00:00Z'));
      expect(res.headers.deprecation).toBe('@1793491200');
      expect(res.headers.sunset).toMatch(IMF_FIXDATE);
      expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(res.headers.link).toBe(successorLink(pet.id));
    });

    it('carries the same headers on a 404', async () => {
      const res = await request(t.http).get('/pets/987654321').set(KEY, key);
      expectError(res, 404, 'PET_NOT_FOUND');
      expect(res.headers.deprecation).toBe('@1793491200');
      expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(res.headers.link).toBe(successorLink(987654321));
    });

    it('links a successor that answers [pet] and is not deprecated itself', async () => {
      const res = await request(t.http).get(`/pets?id=${pet.id}`).set(KEY, key).expect(200);
      expect(res.body).toEqual([pet]);
      expect(res.headers.deprecation).toBeUndefined();
      expect(res.headers.sunset).toBeUndefined();
    });

    it('names the requested id in the successor link, even beyond 2^53', async () => {
      const id = '9007199254740993';
      const res = await request(t.http).get(`/pets/${id}`).set(KEY, key);
      expectError(res, 404, 'PET_NOT_FOUND');
      expect(res.headers.link).toBe(successorLink(id));
    });

    it('documents the operation as deprecated with its sunset date and successor', async () => {
      const doc = await request(t.http).get('/openapi.json').expect(200);
      const op = (doc.body as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths['/pets/{petId}']
        .get;
      expect(op.deprecated).toBe(true);
      expect(Date.parse(String(op['x-sunset']))).toBe(Date.parse('2027-06-30T00:00:00Z'));
      expect(String(op.description)).toContain('/pets?id=');
    });
  });

  describe('with configured dates before the sunset', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        PETS_GET_BY_ID_DEPRECATED_AT: '2026-01-15T12:00:00Z',
        PETS_GET_BY_ID_SUNSET: '2031-02-03T04:05:06Z',
      });
    });
    afterAll(() => t.close());

    it('sends the configured dates', async () => {
      const { key, pet } = await seed(t);
      const res = await request(t.http).get(`/pets/${pet.id}`).set(KEY, key).expect(200);
      expect(res.headers.deprecation).toBe(deprecationHeader('2026-01-15T12:00:00Z'));
      expect(res.headers.sunset).toBe('Mon, 03 Feb 2031 04:05:06 GMT');
      expect(res.headers.link).toBe(successorLink(pet.id));
    });
  });

  describe('past the sunset date', () => {
    let t: TestApp;
    let key: string;
    let pet: Pet;

    beforeAll(async () => {
      t = await createTestApp({
        PETS_GET_BY_ID_SUNSET: '2020-01-01T00:00:00Z',
        PETS_GET_BY_ID_DEPRECATED_AT: '2019-01-01T00:00:00Z',
      });
      ({ key, pet } = await seed(t));
    });
    afterAll(() => t.close());

    it('answers 410 OPERATION_SUNSET with the successor link', async () => {
      const res = await request(t.http).get(`/pets/${pet.id}`).set(KEY, key);
      expectError(res, 410, 'OPERATION_SUNSET');
      expect(res.headers.link).toBe(successorLink(pet.id));
      expect(res.headers.sunset).toBe('Wed, 01 Jan 2020 00:00:00 GMT');
      expect(res.headers.deprecation).toBe(deprecationHeader('2019-01-01T00:00:00Z'));
    });

    it('answers 410 for ids that do not exist too: the operation itself is gone', async () => {
      const res = await request(t.http).get('/pets/987654321').set(KEY, key);
      expectError(res, 410, 'OPERATION_SUNSET');
      expect(res.headers.link).toBe(successorLink(987654321));
    });

    it('answers 410 even for a malformed id: no part of the operation is served any more', async () => {
      const res = await request(t.http).get('/pets/abc').set(KEY, key);
      expectError(res, 410, 'OPERATION_SUNSET');
      expect(res.headers.link).toBe('</pets?id=abc>; rel="successor-version"');
    });

    it('still requires a key', async () => {
      expectError(await request(t.http).get(`/pets/${pet.id}`), 401, 'UNAUTHENTICATED');
    });

    it('leaves the successor and the other operations on the path working', async () => {
      const list = await request(t.http).get(`/pets?id=${pet.id}`).set(KEY, key).expect(200);
      expect(list.body).toEqual([pet]);
      const put = await request(t.http)
        .put(`/pets/${pet.id}`)
        .set(KEY, key)
        .send({ name: 'Rex II', categoryId: pet.categoryId })
        .expect(200);
      expect(put.headers.deprecation).toBeUndefined();
      expect((put.body as Pet).name).toBe('Rex II');
      await request(t.http).patch(`/pets/${pet.id}`).set(KEY, key).send({ status: 'sold' }).expect(200);
    });
  });

  it('refuses a sunset before the deprecation date at start-up', async () => {
    await expect(
      createTestApp({
        PETS_GET_BY_ID_SUNSET: '2020-01-01T00:00:00Z',
        PETS_GET_BY_ID_DEPRECATED_AT: '2021-01-01T00:00:00Z',
      }),
    ).rejects.toThrow(/PETS_GET_BY_ID_SUNSET/);
  });
});
