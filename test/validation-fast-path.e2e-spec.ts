import { ValidationPipe } from '@nestjs/common';
import request from 'supertest';
import { expectError, KEY } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The validation fast path over HTTP: the query as Express parses it and the body
 * as the JSON middleware parses it reach it in the shapes it takes, so plainly
 * valid requests never run the full path (super.transform), and the others get
 * the full path's answers.
 */
describe('validation fast path (e2e)', () => {
  let t: TestApp;
  let writer: string;
  let categoryId: number;
  const original = ValidationPipe.prototype.transform;
  let fullPathCalls = 0;

  const api = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    writer = await t.key(['read', 'write'], 'enterprise');
    const res = await api().post('/categories').set(KEY, writer).send({ name: 'Dogs' }).expect(201);
    categoryId = (res.body as { id: number }).id;
    ValidationPipe.prototype.transform = function (this: ValidationPipe, ...args) {
      fullPathCalls++;
      return original.apply(this, args);
    };
  });

  afterAll(async () => {
    ValidationPipe.prototype.transform = original;
    await t.close();
  });

  beforeEach(() => {
    fullPathCalls = 0;
  });

  it.each(['/pets?id=500000', '/pets', '/pets?status=sold&status=pending&limit=5', '/store/orders?complete=false'])(
    'GET %s is validated on the fast path',
    async (path) => {
      await api().get(path).set(KEY, writer).expect(200);
      expect(fullPathCalls).toBe(0);
    },
  );

  it('POST /pets with a valid body is validated on the fast path', async () => {
    await api().post('/pets').set(KEY, writer).send({ name: 'Rex', categoryId, status: 'sold' }).expect(201);
    expect(fullPathCalls).toBe(0);
  });

  it('an invalid query or body takes the full path, which words the refusal', async () => {
    expectError(await api().get('/pets?id=01').set(KEY, writer), 400, 'VALIDATION_FAILED');
    expectError(await api().post('/pets').set(KEY, writer).send({ name: '', categoryId }), 400, 'VALIDATION_FAILED');
    expect(fullPathCalls).toBe(2);
  });
});
