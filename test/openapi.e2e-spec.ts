import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import request from 'supertest';
import { parse } from 'yaml';
import { createTestApp, type TestApp } from './support/test-app.js';

type Json = Record<string, any>;

/** Not the default, so the test shows that `x-sunset` follows the configuration. */
const SUNSET = '2028-01-31T00:00:00.000Z';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const ERROR_REF = '#/components/schemas/Error';
const PET_STATUS_REF = '#/components/schemas/PetStatus';

/** A property as the seed gives it: a type and format, or a reference to a named schema. */
type Field = { type: string; format?: string } | { $ref: string };
const string: Field = { type: 'string' };
const int64: Field = { type: 'integer', format: 'int64' };
const int32: Field = { type: 'integer', format: 'int32' };
const petStatus: Field = { $ref: PET_STATUS_REF };

/** API.md section 1: the seed's object schemas, their exact fields and required lists. */
const SEED_OBJECTS: Record<string, { fields: Record<string, Field>; required: string[] }> = {
  NewPet: { fields: { name: string, categoryId: int64, status: petStatus }, required: ['name', 'categoryId'] },
  Pet: {
    fields: { id: int64, name: string, categoryId: int64, status: petStatus },
    required: ['id', 'name', 'categoryId'],
  },
  NewCategory: { fields: { name: string, description: string }, required: ['name'] },
  Category: { fields: { id: int64, name: string, description: string }, required: ['id', 'name'] },
  Order: {
    fields: {
      id: int64,
      petId: int64,
      quantity: int32,
      shipDate: { type: 'string', format: 'date-time' },
      complete: { type: 'boolean' },
    },
    required: [],
  },
  InventoryItem: {
    fields: { petId: int64, quantity: int32, status: petStatus },
    required: ['petId', 'quantity', 'status'],
  },
  InventoryUpdate: { fields: { quantity: int32 }, required: ['quantity'] },
  Error: { fields: { code: string, message: string, status: int32 }, required: ['code', 'message', 'status'] },
};

/** API.md section 2 (and 4, for /admin): every operation, its tag and the statuses it names. */
const CONTRACT: Array<[method: string, path: string, tag: string, statuses: number[]]> = [
  ['get', '/pets', 'Pets', [200]],
  ['post', '/pets', 'Pets', [201, 422]],
  ['get', '/pets/{petId}', 'Pets', [200, 404, 410]],
  ['put', '/pets/{petId}', 'Pets', [200, 404, 422]],
  ['patch', '/pets/{petId}', 'Pets', [200, 404, 422]],
  ['delete', '/pets/{petId}', 'Pets', [204, 404, 409]],
  ['get', '/categories', 'Pets', [200]],
  ['post', '/categories', 'Pets', [201, 409]],
  ['get', '/categories/{categoryId}', 'Pets', [200, 404]],
  ['put', '/categories/{categoryId}', 'Pets', [200, 404, 409]],
  ['delete', '/categories/{categoryId}', 'Pets', [204, 404, 409]],
  ['get', '/store/orders', 'Store', [200]],
  ['post', '/store/orders', 'Store', [201, 409, 422]],
  ['get', '/store/orders/{orderId}', 'Store', [200, 404]],
  ['patch', '/store/orders/{orderId}', 'Store', [200, 404]],
  ['delete', '/store/orders/{orderId}', 'Store', [204, 404, 409]],
  ['get', '/store/inventory', 'Store', [200]],
  ['get', '/store/inventory/{petId}', 'Store', [200, 404]],
  ['put', '/store/inventory/{petId}', 'Store', [200, 404]],
  ['post', '/admin/api-keys', 'Store', [201]],
  ['get', '/admin/api-keys', 'Store', [200]],
  ['patch', '/admin/api-keys/{keyId}', 'Store', [200, 404]],
  ['delete', '/admin/api-keys/{keyId}', 'Store', [204, 404]],
  ['post', '/admin/api-keys/{keyId}/unban', 'Store', [404]],
  ['get', '/admin/plans', 'Store', [200]],
];

/** Reachable without an API key (API.md section 4), when the document lists them. */
const PUBLIC_PATHS = new Set(['/health/live', '/health/ready']);

/** Operations marked not yet stable (API.md sections 2 and 4); all others carry no marker. */
const BETA = new Set(['patch /pets/{petId}', 'patch /store/orders/{orderId}']);

describe('OpenAPI document (e2e)', () => {
  let t: TestApp;
  let doc: Json;
  let operations: Array<{ id: string; path: string; method: string; op: Json }>;

  /** Follows a local `$ref` (repeatedly) to the object it points at. */
  const resolve = (node: Json): Json => {
    let current = node;
    for (let hops = 0; typeof current.$ref === 'string'; hops++) {
      if (hops > 10) throw new Error(`$ref loop at ${node.$ref}`);
      expect(current.$ref).toMatch(/^#\//);
      const target = current.$ref
        .slice(2)
        .split('/')
        .reduce<Json | undefined>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      if (!target) throw new Error(`unresolvable $ref ${current.$ref}`);
      current = target;
    }
    return current;
  };

  beforeAll(async () => {
    t = await createTestApp({ PETS_GET_BY_ID_SUNSET: SUNSET });
    const res = await request(t.http)
      .get('/openapi.json')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    doc = res.body;
    operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        id: `${method} ${path}`,
        path,
        method,
        op: item[method] as Json,
      })),
    );
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.0.3, interface version 1.0.0, served without an API key', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toEqual(expect.any(String));
  });

  it('serves the same document as YAML', async () => {
    const res = await request(t.http).get('/openapi.yaml').expect(200);
    expect(res.headers['content-type']).toMatch(/yaml/);
    expect(parse(res.text)).toEqual(doc);
  });

  it('is the document committed as openapi.yaml (the one the linters check), but for the configured sunset', () => {
    const committed = parse(readFileSync('openapi.yaml', 'utf8'));
    const getPet = committed.paths['/pets/{petId}'].get;
    const configured = (text: string) => text.replaceAll('2027-06-30T00:00:00.000Z', SUNSET);
    getPet['x-sunset'] = SUNSET;
    getPet.description = configured(getPet.description);
    const sunsetExample = getPet.responses['410'].content['application/json'].examples.OPERATION_SUNSET.value;
    sunsetExample.message = configured(sunsetExample.message);
    if (!isDeepStrictEqual(committed, doc)) {
      throw new Error('openapi.yaml is not the document the service serves: run `npm run openapi` and commit it');
    }
  });

  it('serves Swagger UI at /docs without an API key', async () => {
    const res = await request(t.http).get('/docs').redirects(2).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
  });

  it('has Swagger UI show the vendor extensions (x-stability, x-sunset)', async () => {
    const init = await request(t.http).get('/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toMatch(/"showExtensions":\s*true/);
  });

  describe('components.schemas', () => {
    it('has PetStatus as a named string enum', () => {
      const schema = doc.components.schemas.PetStatus;
      expect(schema.type).toBe('string');
      expect(schema.enum).toEqual(['available', 'pending', 'sold']);
    });

    it('has Pets as an array of Pet', () => {
      expect(doc.components.schemas.Pets).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Pet' } });
    });

    it.each(Object.entries(SEED_OBJECTS))('has %s with exactly the seed fields', (name, expected) => {
      const schema = doc.components.schemas[name];
      expect(schema).toBeDefined();
      expect(schema.type).toBe('object');
      expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(expected.fields).sort());
      expect([...(schema.required ?? [])].sort()).toEqual([...expected.required].sort());
      for (const [field, type] of Object.entries(expected.fields)) {
        const property = schema.properties[field];
        if ('$ref' in type) {
          // The named enum itself, not an inline copy or an allOf wrapper.
          expect({ field, property }).toEqual({ field, property: { $ref: type.$ref } });
        } else {
          expect({ field, type: property.type, format: property.format }).toEqual({
            field,
            type: type.type,
            format: type.format,
          });
        }
      }
    });

    it('never inlines the PetStatus values elsewhere', () => {
      const inline: string[] = [];
      const visit = (node: unknown, at: string): void => {
        if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${at}/${i}`));
        if (node === null || typeof node !== 'object') return;
        const enumValues = (node as Json).enum;
        // A copy of PetStatus's values (DeliveryStatus has a `pending` of its own).
        const petStatuses =
          Array.isArray(enumValues) && ['available', 'pending', 'sold'].every((v) => enumValues.includes(v));
        if (petStatuses && at !== '/components/schemas/PetStatus') {
          inline.push(at);
        }
        for (const [key, value] of Object.entries(node)) visit(value, `${at}/${key}`);
      };
      visit(doc, '');
      expect(inline).toEqual([]);
    });
  });

  describe('events', () => {
    const ref = (name: string) => `#/components/schemas/${name}`;
    /** Each type's event schema and the payload schema its `data` references. */
    const STORE_EVENTS: Record<string, [event: string, data: string]> = {
      'order.placed': ['OrderPlacedEvent', 'OrderEventData'],
      'order.completed': ['OrderCompletedEvent', 'OrderEventData'],
      'order.cancelled': ['OrderCancelledEvent', 'OrderEventData'],
      'inventory.changed': ['InventoryChangedEvent', 'InventoryChangedData'],
      'pet.status_changed': ['PetStatusChangedEvent', 'PetStatusChangedData'],
      // Catalogue changes carry the resource itself, in its own schema.
      'pet.created': ['PetCreatedEvent', 'Pet'],
      'pet.updated': ['PetUpdatedEvent', 'Pet'],
      'pet.deleted': ['PetDeletedEvent', 'Pet'],
      'category.created': ['CategoryCreatedEvent', 'Category'],
      'category.updated': ['CategoryUpdatedEvent', 'Category'],
      'category.deleted': ['CategoryDeletedEvent', 'Category'],
    };
    const WEBHOOK_EVENTS = { ...STORE_EVENTS, ping: ['PingEvent', 'PingData'] as [string, string] };

    it.each([
      ['Event', STORE_EVENTS],
      ['WebhookEvent', WEBHOOK_EVENTS],
    ])('has %s as a oneOf of one schema per type, told apart by a discriminator on type', (name, types) => {
      const schema = doc.components.schemas[name];
      const entries = Object.entries(types);
      expect(schema.oneOf).toEqual(entries.map(([, [event]]) => ({ $ref: ref(event) })));
      expect(schema.discriminator).toEqual({
        propertyName: 'type',
        mapping: Object.fromEntries(entries.map(([type, [event]]) => [type, ref(event)])),
      });
      for (const [type, [event, data]] of entries) {
        const { properties, required } = doc.components.schemas[event];
        // A ping is no event of the feed: it has no id.
        const fields = type === 'ping' ? ['type', 'occurredAt', 'data'] : ['id', 'type', 'occurredAt', 'data'];
        expect({ event, fields: Object.keys(properties), required }).toEqual({ event, fields, required: fields });
        expect({ event, type: properties.type, data: properties.data }).toEqual({
          event,
          type: { type: 'string', enum: [type] },
          data: { $ref: ref(data) },
        });
      }
    });

    it('maps every EventType value, and lists Event in the feed and WebhookEvent in the callback', () => {
      expect(Object.keys(doc.components.schemas.Event.discriminator.mapping)).toEqual(
        doc.components.schemas.EventType.enum,
      );
      const feed = doc.paths['/events'].get.responses['200'].content['application/json'].schema;
      expect(feed).toEqual({ type: 'array', items: { $ref: ref('Event') } });
      const callback = doc.paths['/webhooks'].post.callbacks.event['{$request.body#/url}'].post;
      expect(callback.requestBody.content['application/json'].schema).toEqual({ $ref: ref('WebhookEvent') });
    });
  });

  it('declares and describes every tag an operation carries, and only those; each operation carries one', () => {
    const declared = new Map((doc.tags as Json[]).map((tag) => [tag.name as string, tag.description as unknown]));
    const used = new Set(operations.flatMap(({ op }) => (op.tags ?? []) as string[]));
    expect(operations.filter(({ op }) => op.tags?.length !== 1).map(({ id }) => id)).toEqual([]);
    // A module's own tag is declared in src/openapi/document.ts (docs/extending.md, "OpenAPI").
    expect([...used].filter((tag) => !declared.has(tag))).toEqual([]);
    expect([...declared.keys()].filter((tag) => !used.has(tag))).toEqual([]);
    for (const [tag, description] of declared) {
      expect({ tag, described: typeof description === 'string' && description.length > 0 }).toEqual({
        tag,
        described: true,
      });
    }
    // The contract's own operations are tagged Pets or Store (API.md section 2): checked per operation below.
    expect(declared.has('Pets') && declared.has('Store')).toBe(true);
  });

  it('documents every operation of the contract with its tag and statuses', () => {
    for (const [method, path, tag, statuses] of CONTRACT) {
      const op = doc.paths[path]?.[method];
      expect({ operation: `${method} ${path}`, documented: Boolean(op) }).toEqual({
        operation: `${method} ${path}`,
        documented: true,
      });
      expect({ operation: `${method} ${path}`, tags: op.tags }).toEqual({
        operation: `${method} ${path}`,
        tags: [tag],
      });
      const missing = statuses.filter((status) => !op.responses[String(status)]);
      expect({ operation: `${method} ${path}`, missing }).toEqual({ operation: `${method} ${path}`, missing: [] });
    }
  });

  it('gives every operation a unique operationId, a summary and a description', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const undocumented = operations.filter(({ op }) => !op.summary || !op.description).map(({ id }) => id);
    expect(undocumented).toEqual([]);
  });

  it('declares the API key security scheme (apiKey in header X-API-Key)', () => {
    const schemes = doc.components.securitySchemes as Json;
    expect(Object.values(schemes)).toEqual([
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    ]);
    const [name] = Object.keys(schemes);
    for (const { id, path, op } of operations) {
      const expected = PUBLIC_PATHS.has(path) ? undefined : [{ [name]: [] }];
      expect({ id, security: op.security?.length ? op.security : undefined }).toEqual({ id, security: expected });
    }
  });

  it('documents 401 and 403 on every secured operation', () => {
    const missing = operations
      .filter(({ op }) => op.security?.length)
      .filter(({ op }) => !op.responses['401'] || !op.responses['403'])
      .map(({ id }) => id);
    expect(missing).toEqual([]);
  });

  it('marks beta operations with x-stability, and only them', () => {
    for (const { id, path, op } of operations) {
      // Beta besides BETA: the admin operations, and webhooks and the event feed (issue 12).
      const beta = BETA.has(id) || path.startsWith('/admin/') || path.startsWith('/webhooks') || path === '/events';
      const expected = beta ? 'beta' : undefined;
      expect({ id, stability: op['x-stability'] }).toEqual({ id, stability: expected });
    }
  });

  it('deprecates GET /pets/{petId} with x-sunset and names its successor', () => {
    const op = doc.paths['/pets/{petId}'].get;
    expect(op.deprecated).toBe(true);
    expect(op['x-sunset']).toBe(SUNSET);
    expect(op.description).toContain('GET /pets?id={petId}');
    const deprecated = operations.filter(({ op: o }) => o.deprecated).map(({ id }) => id);
    expect(deprecated).toEqual(['get /pets/{petId}']);
  });

  it('documents 429 with Retry-After and 500 on every operation', () => {
    for (const { id, op } of operations) {
      expect({ id, has429: Boolean(op.responses['429']), has500: Boolean(op.responses['500']) }).toEqual({
        id,
        has429: true,
        has500: true,
      });
      const tooMany = resolve(op.responses['429']);
      expect({ id, retryAfter: resolve(tooMany.headers?.['Retry-After'] ?? {}).schema?.type }).toEqual({
        id,
        retryAfter: 'integer',
      });
    }
  });

  it('documents the X-RateLimit-* headers on every response', () => {
    const missing: string[] = [];
    for (const { id, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const headers = resolve(response).headers ?? {};
        for (const name of RATE_LIMIT_HEADERS) {
          const header = headers[name] ? resolve(headers[name]) : undefined;
          if (header?.schema?.type !== 'integer') missing.push(`${id} ${status} ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents every failure with the Error schema', () => {
    const wrong: string[] = [];
    for (const { id, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        const schema = resolve(response).content?.['application/json']?.schema;
        // The Error schema itself, with `code` narrowed to the codes this response lists.
        if (schema?.allOf?.[0]?.$ref !== ERROR_REF) wrong.push(`${id} ${status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('types path ids as positive int64', () => {
    for (const { id, op } of operations) {
      for (const parameter of (op.parameters ?? []).map(resolve).filter((p: Json) => p.in === 'path')) {
        expect({ id, name: parameter.name, schema: parameter.schema }).toEqual({
          id,
          name: parameter.name,
          schema: { type: 'integer', format: 'int64', minimum: 1 },
        });
      }
    }
  });

  describe('error codes', () => {
    /** Every 4xx/5xx response of every operation, resolved, with where it is. */
    const errorResponses = (): Array<{ at: string; status: number; response: Json }> =>
      operations.flatMap(({ id, op }) =>
        Object.entries(op.responses as Json)
          .filter(([status]) => Number(status) >= 400)
          .map(([status, response]) => ({
            at: `${id} ${status}`,
            status: Number(status),
            response: resolve(response),
          })),
      );

    it('lists the codes of every error response in its schema, with one example per code', () => {
      const problems: string[] = [];
      for (const { at, status, response } of errorResponses()) {
        const media = response.content?.['application/json'] ?? {};
        const codes: string[] = media.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
        const examples: Json = media.examples ?? {};
        if (codes.length === 0) problems.push(`${at}: lists no codes`);
        if (media.example !== undefined) problems.push(`${at}: a single example instead of one per code`);
        expect({ at, examples: Object.keys(examples).sort() }).toEqual({ at, examples: [...codes].sort() });
        for (const [code, example] of Object.entries(examples)) {
          expect({ at, code, value: example.value }).toEqual({
            at,
            code,
            value: { code, message: expect.any(String), status },
          });
          expect(example.value.message.length).toBeGreaterThan(0);
          if (!response.description.includes(`\`${code}\``)) problems.push(`${at}: description does not name ${code}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("shows the service's own answers as examples: each failure below is the documented example, byte for byte", async () => {
      await t.reset();
      const read = await t.key(['read']);
      const admin = await t.key(['read', 'write', 'admin'], 'enterprise');
      const exampleOf = (method: string, path: string, status: number, code: string): Json =>
        resolve(doc.paths[path][method].responses[String(status)]).content['application/json'].examples[code].value;
      const cases: Array<[method: string, path: string, status: number, code: string, send: () => request.Test]> = [
        ['get', '/pets/{petId}', 404, 'PET_NOT_FOUND', () => request(t.http).get('/pets/42').set('X-API-Key', read)],
        [
          'get',
          '/categories/{categoryId}',
          404,
          'CATEGORY_NOT_FOUND',
          () => request(t.http).get('/categories/7').set('X-API-Key', read),
        ],
        [
          'get',
          '/store/orders/{orderId}',
          404,
          'ORDER_NOT_FOUND',
          () => request(t.http).get('/store/orders/7').set('X-API-Key', read),
        ],
        [
          'delete',
          '/admin/api-keys/{keyId}',
          404,
          'API_KEY_NOT_FOUND',
          () => request(t.http).delete('/admin/api-keys/7').set('X-API-Key', admin),
        ],
        [
          'post',
          '/pets',
          422,
          'CATEGORY_NOT_FOUND',
          () => request(t.http).post('/pets').set('X-API-Key', admin).send({ name: 'Rex', categoryId: 7 }),
        ],
        [
          'post',
          '/store/orders',
          422,
          'PET_NOT_FOUND',
          () => request(t.http).post('/store/orders').set('X-API-Key', admin).send({ petId: 42, quantity: 1 }),
        ],
        ['get', '/pets', 401, 'UNAUTHENTICATED', () => request(t.http).get('/pets')],
        ['get', '/pets', 401, 'INVALID_API_KEY', () => request(t.http).get('/pets').set('X-API-Key', 'psk_unknown')],
        [
          'post',
          '/categories',
          403,
          'INSUFFICIENT_SCOPE',
          () => request(t.http).post('/categories').set('X-API-Key', read).send({ name: 'Dogs' }),
        ],
        [
          'post',
          '/categories',
          400,
          'VALIDATION_FAILED',
          () => request(t.http).post('/pets').set('X-API-Key', admin).send({ name: '', categoryId: 1 }),
        ],
        [
          'post',
          '/categories',
          400,
          'MALFORMED_JSON',
          () =>
            request(t.http)
              .post('/categories')
              .set('X-API-Key', admin)
              .set('Content-Type', 'application/json')
              .send('{"name":'),
        ],
        [
          'post',
          '/categories',
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          () =>
            request(t.http).post('/categories').set('X-API-Key', admin).set('Content-Type', 'text/plain').send('Dogs'),
        ],
      ];
      for (const [method, path, status, code, send] of cases) {
        const res = await send();
        expect({ case: `${method} ${path} ${code}`, status: res.status, body: res.body }).toEqual({
          case: `${method} ${path} ${code}`,
          status,
          body: exampleOf(method, path, status, code),
        });
      }
    });

    it('has a catalogue (x-error-codes) that is exactly the codes the service can produce', () => {
      const catalogue = Object.keys(doc['x-error-codes']).sort();
      const producible = producibleCodes();
      // The rule of docs/extending.md ("OpenAPI"): a code the sources can answer with is in the document.
      const undocumented = producible.filter((code) => !catalogue.includes(code));
      expect({ undocumented, fix: UNDOCUMENTED_CODE_FIX }).toEqual({ undocumented: [], fix: UNDOCUMENTED_CODE_FIX });
      expect(catalogue.filter((code) => !producible.includes(code))).toEqual([]);
      const listed = new Set(
        errorResponses().flatMap(({ response }) => Object.keys(response.content['application/json'].examples as Json)),
      );
      // Only the router's own answers (no operation matched) are in the catalogue without an operation.
      expect(catalogue.filter((code) => !listed.has(code))).toEqual(['METHOD_NOT_ALLOWED', 'ROUTE_NOT_FOUND']);
      for (const { status, response } of errorResponses()) {
        for (const code of Object.keys(response.content['application/json'].examples as Json)) {
          expect({ code, statuses: doc['x-error-codes'][code].statuses }).toEqual({
            code,
            statuses: expect.arrayContaining([status]),
          });
        }
      }
    });
  });

  it('refuses unknown fields in every request body schema (additionalProperties: false), nested objects included', () => {
    const open: string[] = [];
    const visit = (schema: Json, at: string): void => {
      const target = resolve(schema);
      if (target.type === 'object' || target.properties) {
        if (target.additionalProperties !== false) open.push(at);
        for (const [name, property] of Object.entries((target.properties ?? {}) as Json)) {
          visit(property, `${at}.${name}`);
        }
      }
      if (target.items) visit(target.items, `${at}[]`);
      for (const part of target.allOf ?? []) visit(part, at);
    };
    const bodies = operations.filter(({ op }) => op.requestBody);
    expect(bodies.length).toBeGreaterThan(5);
    for (const { id, op } of bodies) {
      for (const [type, media] of Object.entries(resolve(op.requestBody).content as Json)) {
        visit(media.schema, `${id} ${type}`);
      }
    }
    expect(open).toEqual([]);
  });

  it('shows the sunset date of the deprecated operation in its description', () => {
    expect(doc.paths['/pets/{petId}'].get.description).toContain(SUNSET);
  });
});

/**
 * Every error code the service's code can answer with, read from the sources: the
 * domain errors (`readonly code = '…'`), the edge errors (`new ApiError(status, '…'`,
 * subclasses' `super(status, '…'`), and the bodies the filter and the server's own
 * refusals build (`code: '…'`, the filter's status → code table). Left out: the
 * document's own folder (it is what is checked) and the client library (not the service).
 */
const SKIPPED_DIRS = new Set([join('src', 'openapi'), join('libs', 'client')]);

/** What the author of an undocumented code does (shown with the failure). */
const UNDOCUMENTED_CODE_FIX =
  "document each code on the operations that answer it: @ApiErrors(['when it happens', new YourError(…)]) " +
  '(src/shared/http/api-docs.ts; docs/extending.md, "OpenAPI")';

function producibleCodes(): string[] {
  const patterns = [
    /\breadonly code = '([A-Z][A-Z_]+)'/g,
    /\b(?:new ApiError|super)\(\s*\d{3},\s*'([A-Z][A-Z_]+)'/g,
    /\bcode: '([A-Z][A-Z_]+)'/g,
    /^\s*\d{3}: '([A-Z][A-Z_]+)',$/gm,
  ];
  const codes = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(path)) walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const pattern of patterns) for (const match of text.matchAll(pattern)) codes.add(match[1]);
      }
    }
  };
  walk('src');
  walk('libs');
  return [...codes].sort();
}
