import request from 'supertest';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('categories (e2e)', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    writer = await t.key(['read', 'write']);
    reader = await t.key(['read']);
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
});
