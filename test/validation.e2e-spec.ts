import request from 'supertest';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The validation pipe over HTTP: the query as the service's query parser gives it
 * and the body as the JSON middleware parses it are accepted when valid, and
 * refused with 400 VALIDATION_FAILED naming the field when not.
 */
describe('validation (e2e)', () => {
  let t: TestApp;
  let writer: string;
  let categoryId: number;

  const api = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    writer = await t.key(['read', 'write'], 'enterprise');
    const res = await api().post('/categories').set(KEY, writer).send({ name: 'Dogs' }).expect(201);
    categoryId = (res.body as { id: number }).id;
  });

  afterAll(() => t.close());

  it.each(['/pets?id=500000', '/pets', '/pets?status=sold&status=pending&limit=5', '/store/orders?complete=false'])(
    'GET %s is accepted',
    async (path) => {
      await api().get(path).set(KEY, writer).expect(200);
    },
  );

  it('POST /pets with a valid body is accepted', async () => {
    await api().post('/pets').set(KEY, writer).send({ name: 'Rex', categoryId, status: 'sold' }).expect(201);
  });

  it('an invalid query or body is refused, naming the field', async () => {
    const query = await api().get('/pets?id=01').set(KEY, writer);
    expectError(query, 400, 'VALIDATION_FAILED');
    expect((query.body as { message: string }).message).toMatch(/\bid\b/);
    const body = await api().post('/pets').set(KEY, writer).send({ name: '', categoryId });
    expectError(body, 400, 'VALIDATION_FAILED');
    expect((body.body as { message: string }).message).toMatch(/\bname\b/);
  });
});
