import request from 'supertest';
import { expectError, followPages, KEY, nextLink } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

interface Category {
  id: number;
  name: string;
  description?: string;
}

describe('categories (e2e)', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;

  const api = () => request(t.http);
  const message = (res: request.Response) => (res.body as { message: string }).message;

  async function create(body: Record<string, unknown>): Promise<Category> {
    const res = await api().post('/categories').set(KEY, writer).send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    return res.body as Category;
  }

  async function read(id: number): Promise<request.Response> {
    return api().get(`/categories/${id}`).set(KEY, reader);
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    writer = await t.key(['read', 'write'], 'enterprise');
    reader = await t.key(['read'], 'enterprise');
  });
  afterAll(() => t.close());

  it('creates a category with Location and reads it back', async () => {
    const created = await request(t.http)
      .post('/categories')
      .set('X-API-Key', writer)
      .send({ name: 'Dogs', description: 'Loyal' })
      .expect(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Dogs', description: 'Loyal' });
    expect(created.headers.location).toBe(`/categories/${created.body.id}`);
    const read = await request(t.http).get(created.headers.location).set('X-API-Key', reader).expect(200);
    expect(read.body).toEqual(created.body);
  });

  it('refuses a name that differs only in case with 409 CATEGORY_NAME_TAKEN', async () => {
    const res = await request(t.http).post('/categories').set('X-API-Key', writer).send({ name: 'dOGS' }).expect(409);
    expect(res.body).toEqual({ code: 'CATEGORY_NAME_TAKEN', message: expect.any(String), status: 409 });
  });

  it('needs the write scope to create', async () => {
    const res = await request(t.http).post('/categories').set('X-API-Key', reader).send({ name: 'Cats' }).expect(403);
    expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
  });

  describe('POST /categories', () => {
    it('omits description when none was given, and ids are JSON numbers', async () => {
      const res = await api().post('/categories').set(KEY, writer).send({ name: 'Fish' }).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), name: 'Fish' });
      expect(res.text).toMatch(/"id":\d+[,}]/);
    });

    it('accepts a 100-character name and a 500-character description', async () => {
      const name = 'N'.repeat(100);
      const description = 'd'.repeat(500);
      const category = await create({ name, description });
      expect(category).toEqual({ id: expect.any(Number), name, description });
      expect((await read(category.id)).body).toEqual(category);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an empty name', { name: '' }, 'name'],
      ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
      ['a missing name', {}, 'name'],
      ['a numeric name', { name: 5 }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a description of 501 characters', { name: 'Long', description: 'd'.repeat(501) }, 'description'],
      ['a null description', { name: 'Nullish', description: null }, 'description'],
      ['a numeric description', { name: 'Numeric', description: 7 }, 'description'],
      ['an unknown field', { name: 'Extra', colour: 'red' }, 'colour'],
      ['an id in the body', { id: 1, name: 'Identified' }, 'id'],
    ])('refuses %s with 400 VALIDATION_FAILED naming the field', async (_, body, field) => {
      const res = await api().post('/categories').set(KEY, writer).send(body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(message(res)).toMatch(new RegExp(`\\b${field}\\b`));
    });

    it('names every offending field at once', async () => {
      const res = await api().post('/categories').set(KEY, writer).send({ name: '', description: 3, colour: 'red' });
      expectError(res, 400, 'VALIDATION_FAILED');
      for (const field of ['name', 'description', 'colour']) expect(message(res)).toMatch(new RegExp(`\\b${field}\\b`));
    });

    it('compares names without regard to case, beyond ASCII too', async () => {
      await create({ name: 'Ärger' });
      expectError(await api().post('/categories').set(KEY, writer).send({ name: 'äRGER' }), 409, 'CATEGORY_NAME_TAKEN');
      expectError(await api().post('/categories').set(KEY, writer).send({ name: 'FISH' }), 409, 'CATEGORY_NAME_TAKEN');
    });

    it('refuses a name containing a NUL character with 400, not 500', async () => {
      const res = await api().post('/categories').set(KEY, writer).send({ name: 'Bad\u0000Name' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(message(res)).toMatch(/\bname\b/);
    });
  });

  describe('GET /categories/{categoryId}', () => {
    it('answers 404 CATEGORY_NOT_FOUND for a well-formed id that does not exist', async () => {
      expectError(await read(987654321), 404, 'CATEGORY_NOT_FOUND');
    });

    it.each(['0', '-1', 'abc', '1.5', '99999999999999999999', '01', '1e1'])(
      'answers 400 VALIDATION_FAILED for the id %s',
      async (id) => {
        const res = await api().get(`/categories/${id}`).set(KEY, reader);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(message(res)).toMatch(/\bcategoryId\b/);
      },
    );
  });

  describe('PUT /categories/{categoryId}', () => {
    it('replaces every field: an omitted description is removed', async () => {
      const category = await create({ name: 'Reptiles', description: 'Cold-blooded' });
      const res = await api().put(`/categories/${category.id}`).set(KEY, writer).send({ name: 'Lizards' }).expect(200);
      expect(res.body).toEqual({ id: category.id, name: 'Lizards' });
      expect((await read(category.id)).body).toEqual({ id: category.id, name: 'Lizards' });
    });

    it('sets a new description', async () => {
      const category = await create({ name: 'Rodents' });
      const res = await api()
        .put(`/categories/${category.id}`)
        .set(KEY, writer)
        .send({ name: 'Rodents', description: 'Small' })
        .expect(200);
      expect(res.body).toEqual({ id: category.id, name: 'Rodents', description: 'Small' });
    });

    it("refuses another category's name in any case with 409, changing nothing", async () => {
      await create({ name: 'Horses' });
      const ponies = await create({ name: 'Ponies', description: 'Small horses' });
      const res = await api().put(`/categories/${ponies.id}`).set(KEY, writer).send({ name: 'hORSES' });
      expectError(res, 409, 'CATEGORY_NAME_TAKEN');
      expect((await read(ponies.id)).body).toEqual(ponies);
    });

    it('lets a category change the case of its own name', async () => {
      const category = await create({ name: 'insects' });
      const res = await api().put(`/categories/${category.id}`).set(KEY, writer).send({ name: 'Insects' }).expect(200);
      expect(res.body).toEqual({ id: category.id, name: 'Insects' });
    });

    it('answers 404 CATEGORY_NOT_FOUND for a category that does not exist', async () => {
      const res = await api().put('/categories/987654321').set(KEY, writer).send({ name: 'Nowhere' });
      expectError(res, 404, 'CATEGORY_NOT_FOUND');
    });

    it('validates the body like POST, changing nothing', async () => {
      const category = await create({ name: 'Spiders', description: 'Eight legs' });
      const res = await api().put(`/categories/${category.id}`).set(KEY, writer).send({ description: 'No name' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(message(res)).toMatch(/\bname\b/);
      expect((await read(category.id)).body).toEqual(category);
    });

    it('needs the write scope', async () => {
      const category = await create({ name: 'Guarded' });
      const res = await api().put(`/categories/${category.id}`).set(KEY, reader).send({ name: 'Taken over' });
      expectError(res, 403, 'INSUFFICIENT_SCOPE');
      expect((await read(category.id)).body).toEqual(category);
    });
  });

  describe('DELETE /categories/{categoryId}', () => {
    it('refuses with 409 CATEGORY_IN_USE while pets belong to it, and nothing changes', async () => {
      const category = await create({ name: 'Occupied', description: 'Has a pet' });
      const pet = await api()
        .post('/pets')
        .set(KEY, writer)
        .send({ name: 'Tenant', categoryId: category.id })
        .expect(201);
      const res = await api().delete(`/categories/${category.id}`).set(KEY, writer);
      expectError(res, 409, 'CATEGORY_IN_USE');
      expect((await read(category.id)).body).toEqual(category);
      const pets = await api().get(`/pets?categoryId=${category.id}`).set(KEY, reader).expect(200);
      expect(pets.body).toEqual([pet.body]);

      await api()
        .delete(`/pets/${(pet.body as { id: number }).id}`)
        .set(KEY, writer)
        .expect(204);
      await api().delete(`/categories/${category.id}`).set(KEY, writer).expect(204);
      expectError(await read(category.id), 404, 'CATEGORY_NOT_FOUND');
    });

    it('deletes once pets moved away, then answers 404 and frees the name', async () => {
      const from = await create({ name: 'Moving out' });
      const to = await create({ name: 'Moving in' });
      const pet = await api().post('/pets').set(KEY, writer).send({ name: 'Mover', categoryId: from.id }).expect(201);
      await api()
        .patch(`/pets/${(pet.body as { id: number }).id}`)
        .set(KEY, writer)
        .send({ categoryId: to.id })
        .expect(200);
      const res = await api().delete(`/categories/${from.id}`).set(KEY, writer).expect(204);
      expect(res.text).toBe('');
      expectError(await read(from.id), 404, 'CATEGORY_NOT_FOUND');
      expectError(await api().delete(`/categories/${from.id}`).set(KEY, writer), 404, 'CATEGORY_NOT_FOUND');
      await create({ name: 'MOVING OUT' });
    });

    it('needs the write scope', async () => {
      const category = await create({ name: 'Protected' });
      expectError(await api().delete(`/categories/${category.id}`).set(KEY, reader), 403, 'INSUFFICIENT_SCOPE');
      expect((await read(category.id)).status).toBe(200);
    });
  });

  describe('GET /categories paging', () => {
    beforeAll(async () => {
      for (let i = 0; i < 25; i++) await create({ name: `Paged ${String(i).padStart(2, '0')}` });
    });

    it('returns 20 by default with a next link, ordered by id', async () => {
      const res = await api().get('/categories').set(KEY, reader).expect(200);
      const ids = (res.body as Category[]).map((c) => c.id);
      expect(ids).toHaveLength(20);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(nextLink(res)).toMatch(/^\/categories\?cursor=[^&]+$/);
    });

    it('follows next links through every category exactly once, keeping limit', async () => {
      const rows: Array<{ id: string }> = await t.db.query('SELECT id FROM categories ORDER BY id');
      const pages = await followPages(t.http, reader, '/categories?limit=6');
      expect(pages.flatMap((page) => (page.body as Category[]).map((c) => c.id))).toEqual(
        rows.map((r) => Number(r.id)),
      );
      for (const page of pages.slice(0, -1)) {
        expect(page.body).toHaveLength(6);
        expect(new URL(nextLink(page)!, 'http://test').searchParams.get('limit')).toBe('6');
      }
      expect(nextLink(pages.at(-1)!)).toBeNull();
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'cursor=nonsense', 'cursor='])(
      'refuses %s with 400',
      async (query) => {
        const res = await api().get(`/categories?${query}`).set(KEY, reader);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(message(res)).toMatch(new RegExp(`\\b${query.split('=')[0]}\\b`));
      },
    );
  });
});
