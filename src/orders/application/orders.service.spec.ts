import { DomainError, STATUS_BY_KIND } from '@petstore/errors';
import { createInMemoryDatabase, type InMemoryDatabase } from '../../../test/fakes/index.js';
import { RecordingStoreMetrics } from '../../../test/fakes/recording-store-metrics.js';
import { idempotencyKey } from '../../../test/fakes/in-memory-tables.js';
import { InsufficientStockError } from '../../inventory/index.js';
import type { PetStatus } from '../../pets/index.js';
import type { OrderViewer } from '../domain/order.js';
import {
  IdempotencyKeyReusedError,
  OrderAlreadyCompleteError,
  OrderNotFoundError,
  OrderPetNotFoundError,
  PetNotAvailableError,
} from '../domain/order.errors.js';
import { IdempotencyJanitor } from './idempotency-janitor.js';
import { OrdersService } from './orders.service.js';
import { ReplayedRefusal } from './replayed-refusal.js';

const HOUR = 60 * 60 * 1000;
const alice: OrderViewer = { keyId: 1, admin: false };
const bob: OrderViewer = { keyId: 2, admin: false };
const admin: OrderViewer = { keyId: 3, admin: true };
const firstPage = { limit: 20, afterId: null };

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('OrdersService', () => {
  let store: InMemoryDatabase;
  let now: Date;
  let service: OrdersService;
  let metrics: RecordingStoreMetrics;
  let categoryId: number;
  const dog = 10;
  const cat = 20;

  beforeEach(async () => {
    store = createInMemoryDatabase();
    now = new Date('2026-03-01T12:00:00.000Z');
    metrics = new RecordingStoreMetrics();
    service = new OrdersService(
      store.orders,
      store.inventory,
      store.uow,
      store.uow.events,
      { now: () => new Date(now.getTime()) },
      metrics,
    );
    categoryId = (await store.categories.create({ name: 'Pets' })).id;
    stock(dog, 5);
    stock(cat, 1);
  });

  /** Pet `petId` (stored under that id, available, if it is new) with `quantity` units in stock. */
  function stock(petId: number, quantity: number): void {
    if (!store.tables.pets.has(petId)) {
      store.pets.insert({ id: petId, name: `Pet ${petId}`, categoryId, status: 'available' });
    }
    store.inventory.setQuantity(petId, quantity);
  }

  /** A staff edit of the pet's status (PUT/PATCH /pets), bypassing the store rules. */
  async function setStatus(petId: number, status: PetStatus): Promise<void> {
    const pet = await store.pets.findById(petId);
    if (!pet) throw new Error(`no pet ${petId}`);
    await store.pets.update({ ...pet, status });
  }

  /** Makes the next `orders.create` fail, as a lost connection or a late conflict would. */
  function failNextCreate(error: Error): void {
    const orders = store.orders as { create?: unknown };
    orders.create = async () => {
      delete orders.create;
      throw error;
    };
  }

  const status = (petId: number): PetStatus | undefined => store.inventory.line(petId)?.status;
  const quantity = (petId: number): number | undefined => store.inventory.line(petId)?.quantity;

  describe('place', () => {
    it('creates an open order owned by the caller and takes the units from stock', async () => {
      const { order, replayed } = await service.place(alice, { petId: dog, quantity: 2 });
      expect(replayed).toBe(false);
      expect(order).toEqual({ id: 1, petId: dog, quantity: 2, shipDate: null, complete: false, ownerKeyId: 1 });
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 3, status: 'available', openOrders: 1 });
    });

    it('keeps a requested ship date', async () => {
      const shipDate = new Date('2026-04-01T00:00:00.000Z');
      const { order } = await service.place(alice, { petId: dog, quantity: 1, shipDate });
      expect(order.shipDate).toEqual(shipDate);
    });

    it('makes the pet pending when the last unit is ordered', async () => {
      await service.place(alice, { petId: dog, quantity: 5 });
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 0, status: 'pending', openOrders: 1 });
    });

    it('refuses short stock with INSUFFICIENT_STOCK (409) and changes nothing', async () => {
      const error = await failure(service.place(alice, { petId: dog, quantity: 6 }));
      expect(error).toBeInstanceOf(InsufficientStockError);
      expect(STATUS_BY_KIND[error.kind]).toBe(409);
      expect(store.orders.all()).toEqual([]);
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 5, status: 'available', openOrders: 0 });
    });

    it.each(['pending', 'sold'] as const)('refuses a %s pet with PET_NOT_AVAILABLE (409)', async (s) => {
      await setStatus(dog, s);
      const error = await failure(service.place(alice, { petId: dog, quantity: 1 }));
      expect(error).toBeInstanceOf(PetNotAvailableError);
      expect(error.code).toBe('PET_NOT_AVAILABLE');
      expect(quantity(dog)).toBe(5);
      expect(store.orders.all()).toEqual([]);
    });

    it('refuses a missing pet with 422 PET_NOT_FOUND', async () => {
      const error = await failure(service.place(alice, { petId: 404, quantity: 1 }));
      expect(error).toBeInstanceOf(OrderPetNotFoundError);
      expect(error).toMatchObject({ code: 'PET_NOT_FOUND', kind: 'unprocessable' });
      expect(STATUS_BY_KIND[error.kind]).toBe(422);
      expect(error.message).toContain('404');
    });

    it('rolls back the stock change when the order cannot be stored', async () => {
      failNextCreate(new Error('disk full'));
      await expect(service.place(alice, { petId: dog, quantity: 2 })).rejects.toThrow('disk full');
      expect(quantity(dog)).toBe(5);
      expect(store.orders.all()).toEqual([]);
    });

    it('sells no unit twice when many orders race for the stock', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () => service.place(alice, { petId: dog, quantity: 1 })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect(['INSUFFICIENT_STOCK', 'PET_NOT_AVAILABLE']).toContain((r.reason as DomainError).code);
      }
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 0, status: 'pending', openOrders: 5 });
    });
  });

  describe('ownership', () => {
    let alicesOrder: number;
    let bobsOrder: number;

    beforeEach(async () => {
      alicesOrder = (await service.place(alice, { petId: dog, quantity: 1 })).order.id;
      bobsOrder = (await service.place(bob, { petId: dog, quantity: 1 })).order.id;
      await service.place(bob, { petId: cat, quantity: 1 });
    });

    it('lets a key read its own order', async () => {
      expect((await service.get(alice, alicesOrder)).id).toBe(alicesOrder);
    });

    it("answers another key's order as not found (never forbidden)", async () => {
      const error = await failure(service.get(alice, bobsOrder));
      expect(error).toBeInstanceOf(OrderNotFoundError);
      expect(error).toMatchObject({ code: 'ORDER_NOT_FOUND', kind: 'not_found' });
    });

    it('answers a missing order as not found', async () => {
      expect(await failure(service.get(alice, 999))).toBeInstanceOf(OrderNotFoundError);
    });

    it("does not let a key complete or cancel another key's order, and changes nothing", async () => {
      expect(await failure(service.complete(alice, bobsOrder))).toBeInstanceOf(OrderNotFoundError);
      expect(await failure(service.cancel(alice, bobsOrder))).toBeInstanceOf(OrderNotFoundError);
      expect((await service.get(bob, bobsOrder)).complete).toBe(false);
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 3, status: 'available', openOrders: 2 });
    });

    it('lets an admin key see, complete and cancel any order', async () => {
      expect((await service.get(admin, bobsOrder)).ownerKeyId).toBe(bob.keyId);
      expect((await service.complete(admin, bobsOrder)).complete).toBe(true);
      await service.cancel(admin, alicesOrder);
      expect(await store.orders.findById(alicesOrder)).toBeNull();
    });

    it('lists only the caller’s orders unless the caller is an admin', async () => {
      const ids = async (viewer: OrderViewer, filter = {}) =>
        (await service.list(viewer, filter, firstPage)).items.map((o) => o.id);
      expect(await ids(alice)).toEqual([alicesOrder]);
      expect(await ids(bob)).toEqual([bobsOrder, 3]);
      expect(await ids(admin)).toEqual([alicesOrder, bobsOrder, 3]);
      expect(await ids(bob, { petId: cat })).toEqual([3]);
      expect(await ids(admin, { petId: dog })).toEqual([alicesOrder, bobsOrder]);
    });

    it('filters by completeness and pages by id', async () => {
      await service.complete(bob, bobsOrder);
      expect((await service.list(admin, { complete: true }, firstPage)).items.map((o) => o.id)).toEqual([bobsOrder]);
      expect((await service.list(admin, { complete: false }, firstPage)).items.map((o) => o.id)).toEqual([
        alicesOrder,
        3,
      ]);
      const first = await service.list(admin, {}, { limit: 2, afterId: null });
      expect(first).toEqual({
        items: [expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })],
        hasMore: true,
      });
      const second = await service.list(admin, {}, { limit: 2, afterId: 2 });
      expect(second).toEqual({ items: [expect.objectContaining({ id: 3 })], hasMore: false });
    });
  });

  describe('complete', () => {
    it('marks the order complete with the ship date defaulting to now', async () => {
      const { order } = await service.place(alice, { petId: dog, quantity: 2 });
      const done = await service.complete(alice, order.id);
      expect(done).toEqual({ ...order, complete: true, shipDate: now });
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 3, status: 'available', openOrders: 0 });
    });

    it('keeps a given ship date', async () => {
      const { order } = await service.place(alice, { petId: dog, quantity: 1 });
      const shipDate = new Date('2026-05-05T05:05:05.000Z');
      expect((await service.complete(alice, order.id, shipDate)).shipDate).toEqual(shipDate);
    });

    it('sells the pet when stock is 0 and the last open order completes', async () => {
      const a = (await service.place(alice, { petId: dog, quantity: 3 })).order.id;
      const b = (await service.place(bob, { petId: dog, quantity: 2 })).order.id;
      expect(status(dog)).toBe('pending');
      await service.complete(alice, a);
      expect(status(dog)).toBe('pending');
      await service.complete(bob, b);
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 0, status: 'sold', openOrders: 0 });
    });

    it('ends sold when the last open orders complete concurrently', async () => {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push((await service.place(alice, { petId: dog, quantity: 1 })).order.id);
      await Promise.all(ids.map((id) => service.complete(alice, id)));
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 0, status: 'sold', openOrders: 0 });
    });

    it('refuses a second completion with ORDER_ALREADY_COMPLETE (409), keeping the first ship date', async () => {
      const { order } = await service.place(alice, { petId: dog, quantity: 1 });
      await service.complete(alice, order.id);
      now = new Date(now.getTime() + HOUR);
      const error = await failure(service.complete(alice, order.id));
      expect(error).toBeInstanceOf(OrderAlreadyCompleteError);
      expect(error).toMatchObject({ code: 'ORDER_ALREADY_COMPLETE', kind: 'conflict' });
      expect((await service.get(alice, order.id)).shipDate).toEqual(new Date('2026-03-01T12:00:00.000Z'));
    });

    it('answers ORDER_NOT_FOUND for a missing order', async () => {
      expect(await failure(service.complete(alice, 77))).toBeInstanceOf(OrderNotFoundError);
    });
  });

  describe('cancel', () => {
    it('removes the order and returns its units to stock; a pending pet becomes available', async () => {
      const { order } = await service.place(alice, { petId: dog, quantity: 5 });
      expect(status(dog)).toBe('pending');
      await service.cancel(alice, order.id);
      expect(await store.orders.findById(order.id)).toBeNull();
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 5, status: 'available', openOrders: 0 });
      expect(await failure(service.get(alice, order.id))).toBeInstanceOf(OrderNotFoundError);
    });

    it('keeps a sold pet sold while returning the units', async () => {
      const { order } = await service.place(alice, { petId: dog, quantity: 2 });
      await setStatus(dog, 'sold');
      await service.cancel(alice, order.id);
      expect(store.inventory.line(dog)).toEqual({ petId: dog, quantity: 5, status: 'sold', openOrders: 0 });
    });

    it('refuses a complete order with ORDER_ALREADY_COMPLETE and returns no units', async () => {
      const { order } = await service.place(alice, { petId: dog, quantity: 2 });
      await service.complete(alice, order.id);
      const error = await failure(service.cancel(alice, order.id));
      expect(error).toBeInstanceOf(OrderAlreadyCompleteError);
      expect(quantity(dog)).toBe(3);
      expect(await store.orders.findById(order.id)).not.toBeNull();
    });

    it('returns the units exactly once when cancelled twice at the same time', async () => {
      const { order } = await service.place(alice, { petId: dog, quantity: 2 });
      const results = await Promise.allSettled([service.cancel(alice, order.id), service.cancel(alice, order.id)]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(OrderNotFoundError);
      expect(quantity(dog)).toBe(5);
    });
  });

  describe('idempotency', () => {
    const token = (key: string, requestHash = 'hash-a') => ({ key, requestHash });

    it('answers the same key and hash with the first order, replayed, without a second order', async () => {
      const first = await service.place(alice, { petId: dog, quantity: 2 }, token('k1'));
      const second = await service.place(alice, { petId: dog, quantity: 2 }, token('k1'));
      expect(first.replayed).toBe(false);
      expect(second).toEqual({ order: first.order, replayed: true });
      expect(store.orders.all()).toHaveLength(1);
      expect(quantity(dog)).toBe(3);
    });

    it('replays the first order as it was, even after it was completed', async () => {
      const first = await service.place(alice, { petId: dog, quantity: 1 }, token('k1'));
      await service.complete(alice, first.order.id);
      expect((await service.place(alice, { petId: dog, quantity: 1 }, token('k1'))).order).toEqual(first.order);
    });

    it('refuses the same key with a different body with IDEMPOTENCY_KEY_REUSED (409)', async () => {
      await service.place(alice, { petId: dog, quantity: 2 }, token('k1', 'hash-a'));
      const error = await failure(service.place(alice, { petId: dog, quantity: 3 }, token('k1', 'hash-b')));
      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect(error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', kind: 'conflict' });
      expect(store.orders.all()).toHaveLength(1);
    });

    it('scopes keys to the API key: the same key string from another key places a new order', async () => {
      const a = await service.place(alice, { petId: dog, quantity: 1 }, token('shared'));
      const b = await service.place(bob, { petId: dog, quantity: 1 }, token('shared'));
      expect(b.replayed).toBe(false);
      expect(b.order.id).not.toBe(a.order.id);
      expect(b.order.ownerKeyId).toBe(bob.keyId);
    });

    it('replays a refusal as the same refusal, even after stock was added', async () => {
      const error = await failure(service.place(alice, { petId: dog, quantity: 9 }, token('k2')));
      expect(error).toMatchObject({ code: 'INSUFFICIENT_STOCK', kind: 'conflict' });
      stock(dog, 100);
      const again = await failure(service.place(alice, { petId: dog, quantity: 9 }, token('k2')));
      expect(again).toBeInstanceOf(ReplayedRefusal);
      expect(again).toMatchObject({ code: 'INSUFFICIENT_STOCK', kind: 'conflict', message: error.message });
      expect(store.orders.all()).toEqual([]);
      expect(quantity(dog)).toBe(100);
    });

    it('replays a refusal stored by the build before, as the error it stored', async () => {
      store.tables.idempotency.set(idempotencyKey(alice.keyId, 'k-old'), {
        requestHash: 'hash-a',
        createdAt: now,
        outcome: { kind: 'refused', code: 'INSUFFICIENT_STOCK', errorKind: 'conflict', message: 'as it was said' },
      });
      const again = await failure(service.place(alice, { petId: dog, quantity: 1 }, token('k-old')));
      expect(again).toMatchObject({ code: 'INSUFFICIENT_STOCK', kind: 'conflict', message: 'as it was said' });
      expect(store.orders.all()).toEqual([]);
    });

    it('replays PET_NOT_AVAILABLE and PET_NOT_FOUND refusals with their codes and kinds', async () => {
      await setStatus(cat, 'sold');
      await failure(service.place(alice, { petId: cat, quantity: 1 }, token('n1')));
      await setStatus(cat, 'available');
      expect(await failure(service.place(alice, { petId: cat, quantity: 1 }, token('n1')))).toMatchObject({
        code: 'PET_NOT_AVAILABLE',
        kind: 'conflict',
      });
      await failure(service.place(alice, { petId: 404, quantity: 1 }, token('n2')));
      stock(404, 10);
      const replayed = await failure(service.place(alice, { petId: 404, quantity: 1 }, token('n2')));
      expect(replayed).toMatchObject({ code: 'PET_NOT_FOUND', kind: 'unprocessable' });
      expect(STATUS_BY_KIND[replayed.kind]).toBe(422);
      expect(store.orders.all()).toEqual([]);
    });

    it('treats a store that fails after its writes as a fault, even with a refusal: everything undone, nothing remembered', async () => {
      // A refusal is the rule's answer to a store that took nothing; one thrown by the store after it
      // wrote is not a refusal to remember, and the whole transaction rolls back.
      failNextCreate(new InsufficientStockError(dog, 5, 1));
      await failure(service.place(alice, { petId: dog, quantity: 1 }, token('k3')));
      expect(quantity(dog)).toBe(5);
      expect(store.tables.idempotency.size).toBe(0);
      const retry = await service.place(alice, { petId: dog, quantity: 1 }, token('k3'));
      expect(retry.replayed).toBe(false);
    });

    it('remembers nothing when the first attempt fails unexpectedly, so a retry places the order', async () => {
      failNextCreate(new Error('connection lost'));
      await expect(service.place(alice, { petId: dog, quantity: 1 }, token('k4'))).rejects.toThrow('connection lost');
      expect(store.tables.idempotency.size).toBe(0);
      expect(quantity(dog)).toBe(5);
      const retry = await service.place(alice, { petId: dog, quantity: 1 }, token('k4'));
      expect(retry.replayed).toBe(false);
      expect(quantity(dog)).toBe(4);
    });

    it('lets concurrent requests with one key place exactly one order', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => service.place(alice, { petId: dog, quantity: 1 }, token('burst'))),
      );
      expect(new Set(results.map((r) => r.order.id)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(store.orders.all()).toHaveLength(1);
    });

    it('ignores records older than 24 hours: the same key then places a new order', async () => {
      const first = await service.place(alice, { petId: dog, quantity: 1 }, token('old'));
      now = new Date(now.getTime() + 23 * HOUR);
      expect((await service.place(alice, { petId: dog, quantity: 1 }, token('old'))).replayed).toBe(true);
      now = new Date(now.getTime() + 2 * HOUR);
      const later = await service.place(alice, { petId: dog, quantity: 1 }, token('old', 'other-body'));
      expect(later.replayed).toBe(false);
      expect(later.order.id).not.toBe(first.order.id);
      expect(store.orders.all()).toHaveLength(2);
    });

    it('lets the janitor delete expired records only', async () => {
      await service.place(alice, { petId: dog, quantity: 1 }, token('a'));
      now = new Date(now.getTime() + 20 * HOUR);
      await service.place(alice, { petId: dog, quantity: 1 }, token('b'));
      now = new Date(now.getTime() + 5 * HOUR);
      const janitor = new IdempotencyJanitor(store.idempotency, { now: () => now });
      expect(await janitor.sweep()).toBe(1);
      expect(store.tables.idempotency.size).toBe(1);
      expect((await service.place(alice, { petId: dog, quantity: 1 }, token('b'))).replayed).toBe(true);
    });
  });

  describe('metrics (StoreMetrics port)', () => {
    const token = (key: string, requestHash = 'hash-a') => ({ key, requestHash });

    it('reports a placed order, and a stock-out when it took the last units', async () => {
      await service.place(alice, { petId: dog, quantity: 2 });
      expect(metrics.events).toEqual(['placed']);
      await service.place(alice, { petId: dog, quantity: 3 });
      expect(metrics.events).toEqual(['placed', 'placed', `stock-out ${dog}`]);
    });

    it('reports completions and cancellations', async () => {
      const a = await service.place(alice, { petId: dog, quantity: 1 });
      const b = await service.place(alice, { petId: dog, quantity: 1 });
      await service.complete(alice, a.order.id);
      await service.cancel(alice, b.order.id);
      expect(metrics.events).toEqual(['placed', 'placed', 'completed', 'cancelled']);
    });

    it('reports nothing for refusals, failed transactions or failed completions', async () => {
      await failure(service.place(alice, { petId: dog, quantity: 6 }));
      await failure(service.place(alice, { petId: 999, quantity: 1 }));
      failNextCreate(new Error('connection lost'));
      await expect(service.place(alice, { petId: dog, quantity: 5 })).rejects.toThrow('connection lost');
      const order = await service.place(alice, { petId: cat, quantity: 1 });
      metrics.events.length = 0;
      await service.complete(alice, order.order.id);
      await failure(service.complete(alice, order.order.id));
      await failure(service.cancel(alice, order.order.id));
      expect(metrics.events).toEqual(['completed']);
    });

    it('reports an idempotent order once: a replay is not a second order', async () => {
      await service.place(alice, { petId: cat, quantity: 1 }, token('k1'));
      await service.place(alice, { petId: cat, quantity: 1 }, token('k1'));
      expect(metrics.events).toEqual(['placed', `stock-out ${cat}`]);
      await failure(service.place(alice, { petId: cat, quantity: 1 }, token('k2')));
      expect(metrics.events).toEqual(['placed', `stock-out ${cat}`]);
    });
  });

  describe('domain events, recorded in the transaction', () => {
    const types = () => store.uow.committedEvents.map((event) => event.type);

    it('an order records OrderPlaced and the stock change; the last unit also the status change', async () => {
      const heard: string[] = [];
      store.uow.events.subscribe('OrderPlaced', async (event) => void heard.push(event.type));
      const { order } = await service.place(alice, { petId: cat, quantity: 1 });
      expect(heard).toEqual(['OrderPlaced']);
      expect(store.uow.committedEvents).toEqual([
        expect.objectContaining({ type: 'InventoryChanged', petId: cat, oldQuantity: 1, newQuantity: 0 }),
        expect.objectContaining({ type: 'PetStatusChanged', petId: cat, oldStatus: 'available', newStatus: 'pending' }),
        expect.objectContaining({ type: 'OrderPlaced', orderId: order.id, petId: cat, quantity: 1, actorKeyId: 1 }),
      ]);
      expect(store.uow.committedEvents.every((event) => event.occurredAt.getTime() === now.getTime())).toBe(true);
    });

    it('a placement is one statement, without a unit of work, when no subscriber takes its events', async () => {
      await service.place(alice, { petId: dog, quantity: 1 });
      expect(store.uow.commits).toBe(0);
      expect(quantity(dog)).toBe(4);
      store.uow.events.subscribeAll(async () => undefined, { published: false });
      await service.place(alice, { petId: dog, quantity: 1 });
      expect(store.uow.commits).toBe(0);
      store.uow.events.subscribe('PetStatusChanged', async () => undefined);
      await service.place(alice, { petId: dog, quantity: 1 });
      expect(store.uow.commits).toBe(1);
    });

    it('a refused order, remembered under its Idempotency-Key or not, records nothing', async () => {
      await failure(service.place(alice, { petId: cat, quantity: 2 }));
      await failure(service.place(alice, { petId: cat, quantity: 2 }, { key: 'k1', requestHash: 'h1' }));
      expect(types()).toEqual([]);
    });

    it('a replay records nothing more', async () => {
      await service.place(alice, { petId: dog, quantity: 1 }, { key: 'k2', requestHash: 'h2' });
      const before = types().length;
      await service.place(alice, { petId: dog, quantity: 1 }, { key: 'k2', requestHash: 'h2' });
      expect(types().length).toBe(before);
    });

    it('completing and cancelling record their events with the acting key', async () => {
      const first = (await service.place(alice, { petId: dog, quantity: 2 })).order;
      const second = (await service.place(alice, { petId: dog, quantity: 1 })).order;
      store.uow.committedEvents.length = 0;
      await service.complete(admin, first.id);
      await service.cancel(alice, second.id);
      expect(store.uow.committedEvents).toEqual([
        expect.objectContaining({ type: 'OrderCompleted', orderId: first.id, ownerKeyId: 1, actorKeyId: 3 }),
        expect.objectContaining({ type: 'OrderCancelled', orderId: second.id, quantity: 1, actorKeyId: 1 }),
        expect.objectContaining({ type: 'InventoryChanged', petId: dog, oldQuantity: 2, newQuantity: 3 }),
      ]);
    });

    it('a subscriber runs before the commit: when it fails, the order is undone', async () => {
      store.uow.events.subscribe('OrderPlaced', async () => {
        throw new Error('subscriber failed');
      });
      await expect(service.place(alice, { petId: dog, quantity: 1 })).rejects.toThrow('subscriber failed');
      expect(store.inventory.line(dog)?.quantity).toBe(5);
      expect(await store.orders.findPage({}, firstPage)).toMatchObject({ items: [] });
      expect(types()).toEqual([]);
    });

    it("a subscriber's own events are dispatched in turn, in the same transaction", async () => {
      const seen: string[] = [];
      store.uow.events.subscribe('OrderPlaced', async (event, tx) => {
        seen.push(event.type);
        tx.record({ type: 'ExampleLoyaltyAwarded', occurredAt: event.occurredAt, actorKeyId: event.actorKeyId });
      });
      store.uow.events.subscribe('ExampleLoyaltyAwarded', async (event) => void seen.push(event.type));
      await service.place(alice, { petId: dog, quantity: 1 });
      expect(seen).toEqual(['OrderPlaced', 'ExampleLoyaltyAwarded']);
      expect(types()).toContain('ExampleLoyaltyAwarded');
    });
  });
});
