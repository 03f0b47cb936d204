import request from 'supertest';
import {
  EXAMPLE_REVIEWS_MIGRATIONS,
  ExampleReviewsModule,
  TOTAL_COUNT_HEADER,
} from './extension/example-reviews/index.js';
import { expectError, KEY } from './support/http.js';
import { createExtensionTestApp, type ExtensionTestApp } from './support/extension-app.js';
import { issueStoreKey, type StoreKey, stockedPet } from './support/store-builders.js';
import type { TestApp } from './support/test-app.js';

type Json = Record<string, any>;

const ORIGIN = 'https://shop.example';

/**
 * The second worked extension (test/extension/example-reviews), written as the NestJS and
 * TypeORM docs show: a service over injected TypeORM repositories, class-validator
 * DTOs, a response header of its own that browsers may read, and a subscriber to
 * the orders' events writing in the order's transaction. Registered through
 * `AppModule.register` only.
 */
describe('an extension module: reviews of pets (e2e)', () => {
  let t: TestApp;
  let admin: StoreKey;
  let alice: StoreKey;
  let bob: StoreKey;
  let categoryId: number;

  let app: ExtensionTestApp;

  beforeAll(async () => {
    app = await createExtensionTestApp(
      { modules: [ExampleReviewsModule], migrations: EXAMPLE_REVIEWS_MIGRATIONS },
      { CORS_ORIGINS: ORIGIN },
    );
    ({ t, admin, alice, bob, categoryId } = app);
  });
  afterAll(() => app.close());
  beforeEach(() => t.db.query('DELETE FROM example_pet_reviews'));

  const pet = (stock = 5) => stockedPet(t, admin.secret, stock, { name: 'Rex', categoryId });
  const review = (key: StoreKey, petId: number | string, body: Json) =>
    request(t.http).post(`/examples/pets/${petId}/reviews`).set(KEY, key.secret).send(body);
  const list = (key: StoreKey, query = '') => request(t.http).get(`/examples/reviews${query}`).set(KEY, key.secret);

  describe('POST /examples/pets/{petId}/reviews', () => {
    it('creates a review (201) with the comment trimmed, not yet a verified purchase', async () => {
      const petId = await pet();
      const res = await review(alice, petId, { rating: 5, comment: '  Calm and friendly ' }).expect(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        petId,
        rating: 5,
        comment: 'Calm and friendly',
        verifiedPurchase: false,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(res.headers.location).toBe(`/examples/reviews?petId=${petId}`);
    });

    it.each([
      ['no rating', {}, 'rating'],
      ['a rating of 0', { rating: 0 }, 'rating'],
      ['a rating of 6', { rating: 6 }, 'rating'],
      ['a fractional rating', { rating: 4.5 }, 'rating'],
      ['a rating as a string', { rating: '5' }, 'rating'],
      ['a comment of 501 characters', { rating: 3, comment: 'x'.repeat(501) }, 'comment'],
      ['markup in the comment', { rating: 3, comment: '<script>' }, 'comment'],
      ['an unknown field', { rating: 3, extra: true }, 'extra'],
    ])('refuses %s with 400 naming the field, and stores nothing', async (_case, body, field) => {
      const petId = await pet();
      const res = await review(alice, petId, body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.message).toContain(field);
      expect((await list(alice, `?petId=${petId}`).expect(200)).body).toEqual([]);
    });

    it('answers 404 PET_NOT_FOUND for a pet that does not exist, 400 for a bad id', async () => {
      expectError(await review(alice, 999_999, { rating: 4 }), 404, 'PET_NOT_FOUND');
      expectError(await review(alice, 'abc', { rating: 4 }), 400, 'VALIDATION_FAILED');
    });

    it('needs the write scope', async () => {
      const reader = await issueStoreKey(t, ['read']);
      expectError(await review(reader, await pet(), { rating: 4 }), 403, 'INSUFFICIENT_SCOPE');
      expectError(await request(t.http).post('/examples/pets/1/reviews').send({ rating: 4 }), 401, 'UNAUTHENTICATED');
    });

    it('marks a review verified once the author has had an order of the pet completed', async () => {
      const petId = await pet();
      const order = (await request(t.http).post('/store/orders').set(KEY, bob.secret).send({ petId, quantity: 1 }))
        .body as Json;
      expect((await review(bob, petId, { rating: 4 }).expect(201)).body.verifiedPurchase).toBe(false);
      await request(t.http)
        .patch(`/store/orders/${order.id}`)
        .set(KEY, bob.secret)
        .send({ complete: true })
        .expect(200);
      expect((await review(bob, petId, { rating: 5 }).expect(201)).body.verifiedPurchase).toBe(true);
      expect((await review(alice, petId, { rating: 5 }).expect(201)).body.verifiedPurchase).toBe(false);
    });

    it('counts only completed orders: a cancelled one makes no purchase', async () => {
      const petId = await pet();
      const order = (await request(t.http).post('/store/orders').set(KEY, alice.secret).send({ petId, quantity: 1 }))
        .body as Json;
      await request(t.http).delete(`/store/orders/${order.id}`).set(KEY, alice.secret).expect(204);
      expect((await review(alice, petId, { rating: 1 }).expect(201)).body.verifiedPurchase).toBe(false);
    });
  });

  describe('GET /examples/reviews', () => {
    it('filters by pet and least rating, pages by id with a next link, and counts all matches in its own header', async () => {
      const [rex, fido] = [await pet(), await pet()];
      for (const rating of [1, 2, 3, 4, 5]) await review(alice, rex, { rating }).expect(201);
      await review(bob, fido, { rating: 5 }).expect(201);

      const first = await list(alice, `?petId=${rex}&minRating=2&limit=2`).expect(200);
      expect(first.body.map((r: Json) => r.rating)).toEqual([2, 3]);
      expect(first.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('4');
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)?.[1];
      expect(next).toMatch(/^\/examples\/reviews\?petId=\d+&minRating=2&limit=2&cursor=/);

      const second = await request(t.http).get(next!).set(KEY, alice.secret).expect(200);
      expect(second.body.map((r: Json) => r.rating)).toEqual([4, 5]);
      expect(second.headers.link).toBeUndefined();

      const all = await list(alice, '?minRating=5').expect(200);
      expect(all.body.map((r: Json) => r.petId)).toEqual([rex, fido]);
      expect(all.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    });

    it('refuses bad filters with 400', async () => {
      for (const query of ['?minRating=0', '?minRating=6', '?petId=abc', '?limit=0', '?cursor=nope']) {
        expectError(await list(alice, query), 400, 'VALIDATION_FAILED');
      }
    });

    it('lets a browser on an allowed origin read its own header', async () => {
      const res = await list(alice).set('Origin', ORIGIN).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      const exposed = String(res.headers['access-control-expose-headers'])
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(exposed).toEqual(expect.arrayContaining([TOTAL_COUNT_HEADER.toLowerCase(), 'x-request-id', 'link']));
    });
  });

  describe('DELETE /examples/reviews/{reviewId}', () => {
    it("lets the author and an admin delete, and answers another key's review 404", async () => {
      const petId = await pet();
      const mine = (await review(alice, petId, { rating: 3 }).expect(201)).body.id;
      const other = (await review(alice, petId, { rating: 4 }).expect(201)).body.id;
      expectError(
        await request(t.http).delete(`/examples/reviews/${mine}`).set(KEY, bob.secret),
        404,
        'EXAMPLE_REVIEW_NOT_FOUND',
      );
      await request(t.http).delete(`/examples/reviews/${mine}`).set(KEY, alice.secret).expect(204);
      await request(t.http).delete(`/examples/reviews/${other}`).set(KEY, admin.secret).expect(204);
      expectError(
        await request(t.http).delete(`/examples/reviews/${mine}`).set(KEY, alice.secret),
        404,
        'EXAMPLE_REVIEW_NOT_FOUND',
      );
      expect((await list(alice, `?petId=${petId}`).expect(200)).body).toEqual([]);
    });
  });

  it("goes with its pet: deleting a pet deletes the pet's reviews", async () => {
    const petId = await stockedPet(t, admin.secret, 0, { name: 'Short-lived', categoryId });
    await review(alice, petId, { rating: 2 }).expect(201);
    await request(t.http).delete(`/pets/${petId}`).set(KEY, admin.secret).expect(204);
    expect(await t.db.query('SELECT * FROM example_pet_reviews WHERE pet_id = $1', [petId])).toEqual([]);
  });

  it('is documented under its own tag in this app', async () => {
    const document: Json = (await request(t.http).get('/openapi.json').expect(200)).body;
    expect(document.paths['/examples/reviews'].get).toMatchObject({
      operationId: 'listExampleReviews',
      tags: ['Example reviews'],
    });
    expect(document.paths['/examples/pets/{petId}/reviews'].post.requestBody).toBeDefined();
    expect(document.components.schemas.ExampleNewReview.required).toEqual(['rating']);
  });
});
