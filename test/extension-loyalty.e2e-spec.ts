import { readFileSync } from 'node:fs';
import request from 'supertest';
import { parse } from 'yaml';
import { OrdersService } from '../src/orders/application/orders.service.js';
import {
  EXAMPLE_LOYALTY_MIGRATIONS,
  ExampleLoyaltyModule,
  type LoyaltyPointsRepository,
  LoyaltyPointsSpentError,
  ExampleLoyaltyService,
  POINTS_PER_UNIT,
} from './extension/example-loyalty/index.js';
import {
  InMemoryCategoryRepository,
  InMemoryOrderRepository,
  InMemoryPetRepository,
  InMemoryInventoryRepository,
  InMemoryTables,
  InMemoryUnitOfWork,
} from './fakes/index.js';
import { expectError, KEY } from './support/http.js';
import { createExtensionTestApp, type ExtensionTestApp } from './support/extension-app.js';
import { issueStoreKey, type StoreKey, stockedPet } from './support/store-builders.js';
import type { TestApp } from './support/test-app.js';

type Json = Record<string, any>;

/**
 * Proof by extension: a module that the core does not know (test/extension/example-loyalty:
 * entity, migration, repository port and adapter, service, controller with its
 * scope and OpenAPI tag) is registered next to the real modules through the
 * composition root only, and keeps points per key by subscribing to the orders'
 * events, inside the order's transaction.
 */
describe('an extension module: loyalty points (e2e)', () => {
  let t: TestApp;
  let admin: StoreKey;
  let alice: StoreKey;
  let bob: StoreKey;
  let categoryId: number;

  let app: ExtensionTestApp;

  beforeAll(async () => {
    app = await createExtensionTestApp({ modules: [ExampleLoyaltyModule], migrations: EXAMPLE_LOYALTY_MIGRATIONS });
    ({ t, admin, alice, bob, categoryId } = app);
  });
  afterAll(() => app.close());

  const pet = (stock: number) => stockedPet(t, admin.secret, stock, { name: 'Rex', categoryId });

  const place = (key: StoreKey, petId: number, quantity: number, idempotencyKey?: string) => {
    const req = request(t.http).post('/store/orders').set(KEY, key.secret);
    if (idempotencyKey !== undefined) req.set('Idempotency-Key', idempotencyKey);
    return req.send({ petId, quantity });
  };
  const cancel = (key: StoreKey, orderId: number) =>
    request(t.http).delete(`/store/orders/${orderId}`).set(KEY, key.secret);

  /** The key's points as an admin reads them over HTTP. */
  async function points(key: StoreKey): Promise<number> {
    const res = await request(t.http).get(`/examples/loyalty/${key.id}`).set(KEY, admin.secret).expect(200);
    return res.body.points;
  }

  async function store(petId: number): Promise<{ quantity: number; status: string; orders: number }> {
    const res = await request(t.http).get(`/store/inventory/${petId}`).set(KEY, admin.secret).expect(200);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM orders WHERE pet_id = $1', [petId]);
    return { quantity: res.body.quantity, status: res.body.status, orders: n };
  }

  beforeEach(() => t.db.query('DELETE FROM example_loyalty_points'));

  describe('GET /examples/loyalty/{keyId}', () => {
    it('shows a key its own points, 0 before its first order', async () => {
      const res = await request(t.http).get(`/examples/loyalty/${alice.id}`).set(KEY, alice.secret).expect(200);
      expect(res.body).toEqual({ keyId: alice.id, points: 0 });
    });

    it("answers another key's points 404 (never 403), except to an admin key", async () => {
      await place(alice, await pet(5), 1).expect(201);
      expectError(
        await request(t.http).get(`/examples/loyalty/${alice.id}`).set(KEY, bob.secret),
        404,
        'EXAMPLE_LOYALTY_ACCOUNT_NOT_FOUND',
      );
      const res = await request(t.http).get(`/examples/loyalty/${alice.id}`).set(KEY, admin.secret).expect(200);
      expect(res.body).toEqual({ keyId: alice.id, points: POINTS_PER_UNIT });
    });

    it('needs a key with the read scope, and a positive id', async () => {
      expectError(await request(t.http).get(`/examples/loyalty/${alice.id}`), 401, 'UNAUTHENTICATED');
      const writeOnly = await issueStoreKey(t, ['write']);
      expectError(
        await request(t.http).get(`/examples/loyalty/${writeOnly.id}`).set(KEY, writeOnly.secret),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expectError(await request(t.http).get('/examples/loyalty/abc').set(KEY, admin.secret), 400, 'VALIDATION_FAILED');
      expectError(
        await request(t.http).get('/examples/loyalty/9007199254740993').set(KEY, bob.secret),
        404,
        'EXAMPLE_LOYALTY_ACCOUNT_NOT_FOUND',
      );
    });

    it('is documented under its own tag in this app, and absent from the real one', async () => {
      const document: Json = (await request(t.http).get('/openapi.json').expect(200)).body;
      const operation = document.paths['/examples/loyalty/{keyId}'].get;
      expect(operation).toMatchObject({
        operationId: 'getExampleLoyaltyPoints',
        tags: ['Example loyalty'],
        security: [{ ApiKey: [] }],
      });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '429']));
      expect(operation.parameters[0]).toMatchObject({ name: 'keyId', in: 'path', schema: { format: 'int64' } });
      expect(document.components.schemas.ExampleLoyaltyPoints).toBeDefined();

      const real: Json = parse(readFileSync('openapi.yaml', 'utf8'));
      expect(real.tags.map((tag: Json) => tag.name)).toEqual(['Pets', 'Store']);
      expect(Object.keys(real.paths).filter((path) => path.startsWith('/examples'))).toEqual([]);
    });
  });

  describe('points follow the orders', () => {
    it('earns 10 points per unit for the order owner with each order, and keeps them when it is fulfilled', async () => {
      const petId = await pet(10);
      const first = (await place(alice, petId, 2).expect(201)).body.id;
      await place(alice, petId, 3).expect(201);
      await place(admin, petId, 1).expect(201);
      expect([await points(alice), await points(admin), await points(bob)]).toEqual([50, 10, 0]);

      await request(t.http).patch(`/store/orders/${first}`).set(KEY, alice.secret).send({ complete: true }).expect(200);
      expect(await points(alice)).toBe(50);
    });

    it("takes the points back from the order's owner when it is cancelled, whoever cancels it", async () => {
      const petId = await pet(10);
      const mine = (await place(alice, petId, 2).expect(201)).body.id;
      const other = (await place(alice, petId, 4).expect(201)).body.id;
      expect(await points(alice)).toBe(60);

      await cancel(alice, mine).expect(204);
      expect(await points(alice)).toBe(40);
      await cancel(admin, other).expect(204);
      expect([await points(alice), await points(admin)]).toEqual([0, 0]);
    });

    it('counts each of many concurrent orders exactly once', async () => {
      const petId = await pet(10);
      const answers = await Promise.all(Array.from({ length: 20 }, () => place(alice, petId, 1)));
      expect(answers.filter((res) => res.status === 201)).toHaveLength(10);
      expect(await points(alice)).toBe(10 * POINTS_PER_UNIT);
    });
  });

  describe('a refused order earns nothing', () => {
    it('409 INSUFFICIENT_STOCK and PET_NOT_AVAILABLE', async () => {
      const petId = await pet(2);
      expectError(await place(alice, petId, 3), 409, 'INSUFFICIENT_STOCK');
      await place(alice, petId, 2).expect(201);
      expectError(await place(alice, petId, 1), 409, 'PET_NOT_AVAILABLE');
      expect(await points(alice)).toBe(20);
    });

    it('422 PET_NOT_FOUND', async () => {
      expectError(await place(alice, 999_999, 1), 422, 'PET_NOT_FOUND');
      expect(await points(alice)).toBe(0);
    });

    it('an idempotent order replayed, its remembered refusal replayed, or its key reused', async () => {
      const petId = await pet(5);
      await place(alice, petId, 2, 'loyal-1').expect(201);
      const replay = await place(alice, petId, 2, 'loyal-1').expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expectError(await place(alice, petId, 3, 'loyal-1'), 409, 'IDEMPOTENCY_KEY_REUSED');

      expectError(await place(alice, petId, 9, 'loyal-2'), 409, 'INSUFFICIENT_STOCK');
      expectError(await place(alice, petId, 9, 'loyal-2'), 409, 'INSUFFICIENT_STOCK');
      expect(await points(alice)).toBe(20);
    });
  });

  describe("a subscriber's failure fails the change that caused it", () => {
    it('a cancellation whose points were spent is refused, and the order stays as it was', async () => {
      const petId = await pet(3);
      const orderId = (await place(alice, petId, 3).expect(201)).body.id;
      const before = await store(petId);
      expect(before).toEqual({ quantity: 0, status: 'pending', orders: 1 });
      // Spent elsewhere: 30 earned, 25 left.
      await t.db.query('UPDATE example_loyalty_points SET points = 25 WHERE api_key_id = $1', [alice.id]);

      expectError(await cancel(alice, orderId), 409, 'EXAMPLE_LOYALTY_POINTS_SPENT');
      expect(await store(petId)).toEqual(before);
      const order = await request(t.http).get(`/store/orders/${orderId}`).set(KEY, alice.secret).expect(200);
      expect(order.body.complete).toBe(false);
      expect(await points(alice)).toBe(25);
    });

    it('an order whose points cannot be written is not placed, nor remembered under its Idempotency-Key', async () => {
      const petId = await pet(5);
      // A forced failure of the subscriber's own write: no balance may exceed 40 points.
      await t.db.query(
        'ALTER TABLE example_loyalty_points ADD CONSTRAINT "CHK_example_loyalty_points_test_cap" CHECK (points <= 40)',
      );
      try {
        expectError(await place(alice, petId, 5, 'loyal-3'), 500, 'INTERNAL_ERROR');
        expect(await store(petId)).toEqual({ quantity: 5, status: 'available', orders: 0 });
        expect(await points(alice)).toBe(0);
        const remembered = await t.db.query('SELECT 1 FROM idempotency_keys WHERE api_key_id = $1 AND key = $2', [
          alice.id,
          'loyal-3',
        ]);
        expect(remembered).toEqual([]);
      } finally {
        await t.db.query('ALTER TABLE example_loyalty_points DROP CONSTRAINT "CHK_example_loyalty_points_test_cap"');
      }

      const retried = await place(alice, petId, 5, 'loyal-3').expect(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await store(petId)).toEqual({ quantity: 0, status: 'pending', orders: 1 });
      expect(await points(alice)).toBe(50);
    });
  });
});

/**
 * The port over a table of this module's own among the fakes' tables: what a (fake)
 * transaction or savepoint rolls back, it rolls back with the orders and the stock.
 */
class InMemoryLoyaltyPointsRepository implements LoyaltyPointsRepository {
  private readonly points: Map<number, number>;

  constructor(tables: InMemoryTables) {
    this.points = tables.table('example_loyalty_points');
  }

  async pointsOf(keyId: number): Promise<number> {
    return this.points.get(keyId) ?? 0;
  }

  async add(keyId: number, points: number): Promise<void> {
    this.points.set(keyId, (await this.pointsOf(keyId)) + points);
  }

  async take(keyId: number, points: number): Promise<boolean> {
    const held = await this.pointsOf(keyId);
    if (held < points) return false;
    this.points.set(keyId, held - points);
    return true;
  }
}

describe('an extension module: loyalty points, on the in-memory fakes', () => {
  const alice = { keyId: 1, admin: false };
  let tables: InMemoryTables;
  let uow: InMemoryUnitOfWork;
  let orders: OrdersService;
  let loyalty: ExampleLoyaltyService;
  const petId = 7;

  beforeEach(async () => {
    tables = new InMemoryTables();
    uow = new InMemoryUnitOfWork(tables);
    const pets = new InMemoryPetRepository(tables);
    const inventory = new InMemoryInventoryRepository(tables);
    const categoryId = (await new InMemoryCategoryRepository(tables).create({ name: 'Dogs' })).id;
    pets.insert({ id: petId, name: 'Rex', categoryId, status: 'available' });
    inventory.setQuantity(petId, 5);
    orders = new OrdersService(new InMemoryOrderRepository(tables), inventory, uow, uow.events);
    loyalty = new ExampleLoyaltyService(new InMemoryLoyaltyPointsRepository(tables), uow.events);
    loyalty.onModuleInit();
  });

  it('earns points with the order, in its transaction', async () => {
    await orders.place(alice, { petId, quantity: 2 });
    expect(await loyalty.balance(alice, 1)).toEqual({ keyId: 1, points: 20 });
    expect(uow.commits).toBe(1);
  });

  it('rolls the cancellation back, order and stock included, when the points were spent', async () => {
    const { order } = await orders.place(alice, { petId, quantity: 2 });
    tables.table<number, number>('example_loyalty_points').set(1, 5);
    await expect(orders.cancel(alice, order.id)).rejects.toBeInstanceOf(LoyaltyPointsSpentError);
    expect(tables.orders.get(order.id)).toEqual(order);
    expect(tables.inventory.get(petId)).toBe(3);
    expect(uow.committedEvents.map((event) => event.type)).not.toContain('OrderCancelled');
  });
});
