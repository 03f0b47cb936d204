import fc from 'fast-check';
import request from 'supertest';
import { errorShapeProblem, expectError, KEY } from './support/http.js';
import { issueStoreKey, storeSetup, stockedPet } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Hostile bodies on every operation that takes one, found in the served OpenAPI
 * document (so a new route is covered without editing this file): nesting far
 * beyond any real body, inside known and unknown fields, and bodies just over the
 * size limit. Each must be a 4xx Error and change nothing.
 */

const BODY_LIMIT = 16 * 1024;
type Method = 'post' | 'put' | 'patch';

interface BodyOperation {
  readonly method: Method;
  readonly template: string;
  readonly fields: readonly string[];
}

interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

function bodyOperations(doc: OpenApi): BodyOperation[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const ref = operation.requestBody?.content['application/json']?.schema.$ref;
      if (!ref) return [];
      const schema = doc.components.schemas[ref.split('/').pop() ?? ''];
      return [{ method: method as Method, template, fields: Object.keys(schema?.properties ?? {}) }];
    }),
  );
}

/** `depth` levels of arrays and objects, mixed by `shape` (a bit per level), around `core`. */
function nested(depth: number, shape: number, core = '1'): string {
  let text = core;
  for (let level = 0; level < depth; level++) text = (shape >> (level % 31)) & 1 ? `{"k":${text}}` : `[${text}]`;
  return text;
}

describe('hostile bodies on every body-taking operation', () => {
  let t: TestApp;
  let admin: string;
  let operations: BodyOperation[];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // Webhook endpoints on this machine's loopback address (never called: no dispatcher in a test app).
    t = await createTestApp({
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_ALLOWED_PORTS: 'any',
    });
    await t.reset();
    const setup = await storeSetup(t, 'Hostile bodies');
    admin = setup.admin;
    const pet = await stockedPet(t, admin, 50, { name: 'Target', categoryId: setup.categoryId });
    const order = await request(t.http).post('/store/orders').set(KEY, admin).send({ petId: pet, quantity: 1 });
    const key = await issueStoreKey(t, ['read']);
    const webhook = await request(t.http)
      .post('/webhooks')
      .set(KEY, admin)
      .send({ url: 'http://127.0.0.1:9/hooks', events: ['order.placed'] })
      .expect(201);
    const account = await request(t.http)
      .post('/admin/accounts')
      .set(KEY, admin)
      .send({ name: 'Hostile', plan: 'free' })
      .expect(201);
    Object.assign(ids, {
      accountId: (account.body as { id: number }).id,
      webhookId: (webhook.body as { id: number }).id,
      petId: pet,
      categoryId: setup.categoryId,
      orderId: (order.body as { id: number }).id,
      keyId: key.id,
    });
    operations = bodyOperations((await request(t.http).get('/openapi.json').expect(200)).body as OpenApi);
  });
  afterAll(() => t.close());

  const pathOf = (template: string) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name] ?? `missing-${name}`));

  /** Every row of every table, to show that a refused request changed nothing. */
  async function snapshot(): Promise<string> {
    const tables = [
      'categories',
      'pets',
      'inventory',
      'orders',
      'api_keys',
      'accounts',
      'idempotency_keys',
      'webhooks',
    ];
    const rows = await Promise.all(
      tables.map((table) => t.db.query(`SELECT to_jsonb(x) AS row FROM ${table} x ORDER BY to_jsonb(x)::text`)),
    );
    return JSON.stringify(rows);
  }

  it('covers every operation the document says takes a body', () => {
    const names = operations.map((op) => `${op.method.toUpperCase()} ${op.template}`).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /pets',
        'PUT /pets/{petId}',
        'PATCH /pets/{petId}',
        'POST /categories',
        'PUT /categories/{categoryId}',
        'POST /store/orders',
        'PATCH /store/orders/{orderId}',
        'PUT /store/inventory/{petId}',
        'POST /admin/api-keys',
        'PATCH /admin/api-keys/{keyId}',
      ]),
    );
    for (const op of operations) expect(op.template.match(/\{(\w+)\}/g) ?? []).not.toContain('{missing}');
  });

  it('refuses deep nesting in any field, known or unknown, with 400 and changes nothing', async () => {
    const before = await snapshot();
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...op.fields, 'unknownField'),
          fc.integer({ min: 33, max: 5_000 }),
          fc.integer(),
          async (field, depth, shape) => {
            const text = `{"${field}":${nested(depth, shape)}}`;
            fc.pre(text.length <= BODY_LIMIT);
            const res = await request(t.http)
              [op.method](pathOf(op.template))
              .set(KEY, admin)
              .set('Content-Type', 'application/json')
              .send(text);
            expect({ op: op.template, field, depth, problem: errorShapeProblem(res) }).toEqual({
              op: op.template,
              field,
              depth,
              problem: null,
            });
            expect(res.status).toBe(400);
            expect((res.body as { message: string }).message).toMatch(/deeper than 32 levels/);
          },
        ),
        { numRuns: 12 },
      );
    }
    expect(await snapshot()).toEqual(before);
  });

  it('names the field when a known field holds nesting within the bound', async () => {
    for (const op of operations) {
      for (const field of op.fields) {
        const res = await request(t.http)
          [op.method](pathOf(op.template))
          .set(KEY, admin)
          .set('Content-Type', 'application/json')
          .send(`{"${field}":${nested(20, 0x55555)}}`);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect((res.body as { message: string }).message).toContain(field);
      }
    }
  });

  it('refuses a body one byte over the limit with 413 and accepts one at the limit as JSON', async () => {
    const before = await snapshot();
    for (const op of operations) {
      const padding = (size: number) => {
        const frame = '{"unknownField":""}';
        return `{"unknownField":"${'x'.repeat(size - frame.length)}"}`;
      };
      const over = await request(t.http)
        [op.method](pathOf(op.template))
        .set(KEY, admin)
        .set('Content-Type', 'application/json')
        .send(padding(BODY_LIMIT + 1));
      expectError(over, 413, 'PAYLOAD_TOO_LARGE');
      const at = await request(t.http)
        [op.method](pathOf(op.template))
        .set(KEY, admin)
        .set('Content-Type', 'application/json')
        .send(padding(BODY_LIMIT));
      expectError(at, 400, 'VALIDATION_FAILED');
      expect((at.body as { message: string }).message).toMatch(/unknownField/);
    }
    expect(await snapshot()).toEqual(before);
  });
});
