import fc from 'fast-check';
import request from 'supertest';
import { createPet, putStock, storeSetup } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Status = 'available' | 'pending' | 'sold';
const STATUSES: readonly Status[] = ['available', 'pending', 'sold'];

/**
 * API.md section 3, written out again as plainly as possible: one pet's stock, its
 * status, its open orders (id → units) and its completed orders.
 */
interface Model {
  quantity: number;
  status: Status;
  readonly open: Map<number, number>;
  readonly done: number[];
}

interface Real {
  readonly t: TestApp;
  readonly petId: number;
  readonly admin: string;
  readonly writer: string;
}

const byId = (a: number, b: number) => a - b;

/** How many times the service was compared with the model (once per set-up and per command). */
let checks = 0;

/** After every command the service must agree with the model: stock, status (pet and entry), open and done orders. */
async function agree(m: Model, r: Real): Promise<void> {
  checks++;
  const item = await request(r.t.http).get(`/store/inventory/${r.petId}`).set('X-API-Key', r.writer).expect(200);
  expect(item.body).toEqual({ petId: r.petId, quantity: m.quantity, status: m.status });
  const pet = await request(r.t.http).get(`/pets?id=${r.petId}`).set('X-API-Key', r.writer).expect(200);
  expect(pet.body.map((p: { status: string }) => p.status)).toEqual([m.status]);
  const open = await request(r.t.http)
    .get(`/store/orders?petId=${r.petId}&complete=false&limit=100`)
    .set('X-API-Key', r.writer)
    .expect(200);
  expect(open.body.map((o: { id: number; quantity: number }) => [o.id, o.quantity])).toEqual(
    [...m.open.entries()].sort(([a], [b]) => a - b),
  );
  const done = await request(r.t.http)
    .get(`/store/orders?petId=${r.petId}&complete=true&limit=100`)
    .set('X-API-Key', r.writer)
    .expect(200);
  expect(done.body.map((o: { id: number }) => o.id)).toEqual([...m.done].sort(byId));
}

type StoreCommand = fc.AsyncCommand<Model, Real>;

class Restock implements StoreCommand {
  constructor(readonly quantity: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const res = await putStock(r.t, r.admin, r.petId, this.quantity);
    if (this.quantity > 0) m.status = 'available';
    else if (m.status === 'available') m.status = m.open.size > 0 ? 'pending' : 'sold';
    m.quantity = this.quantity;
    expect([res.status, res.body]).toEqual([200, { petId: r.petId, quantity: m.quantity, status: m.status }]);
    await agree(m, r);
  }
  toString = () => `restock(${this.quantity})`;
}

class PlaceOrder implements StoreCommand {
  constructor(readonly quantity: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const res = await request(r.t.http)
      .post('/store/orders')
      .set('X-API-Key', r.writer)
      .send({ petId: r.petId, quantity: this.quantity });
    if (m.status !== 'available') {
      expect([res.status, res.body.code]).toEqual([409, 'PET_NOT_AVAILABLE']);
    } else if (m.quantity < this.quantity) {
      expect([res.status, res.body.code]).toEqual([409, 'INSUFFICIENT_STOCK']);
    } else {
      expect([res.status, res.body]).toEqual([
        201,
        { id: expect.any(Number), petId: r.petId, quantity: this.quantity, complete: false },
      ]);
      m.quantity -= this.quantity;
      m.open.set(res.body.id, this.quantity);
      if (m.quantity === 0) m.status = 'pending';
    }
    await agree(m, r);
  }
  toString = () => `order(${this.quantity})`;
}

/** Picks one of the open orders by a random index. */
const pickOpen = (m: Readonly<Model>, pick: number): number => [...m.open.keys()].sort(byId)[pick % m.open.size];

class CompleteOrder implements StoreCommand {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.open.size > 0;
  async run(m: Model, r: Real): Promise<void> {
    const id = pickOpen(m, this.pick);
    const res = await request(r.t.http)
      .patch(`/store/orders/${id}`)
      .set('X-API-Key', r.writer)
      .send({ complete: true });
    expect([res.status, res.body]).toEqual([
      200,
      { id, petId: r.petId, quantity: m.open.get(id), complete: true, shipDate: expect.any(String) },
    ]);
    m.open.delete(id);
    m.done.push(id);
    if (m.quantity === 0 && m.open.size === 0) m.status = 'sold';
    await agree(m, r);
  }
  toString = () => `complete(#${this.pick})`;
}

class CancelOrder implements StoreCommand {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.open.size > 0;
  async run(m: Model, r: Real): Promise<void> {
    const id = pickOpen(m, this.pick);
    const res = await request(r.t.http).delete(`/store/orders/${id}`).set('X-API-Key', r.writer);
    expect(res.status).toBe(204);
    m.quantity += m.open.get(id)!;
    m.open.delete(id);
    if (m.status === 'pending') m.status = 'available';
    await agree(m, r);
  }
  toString = () => `cancel(#${this.pick})`;
}

/** Completing or cancelling an order that is already complete: 409, and nothing moves. */
class CloseCompleted implements StoreCommand {
  constructor(
    readonly pick: number,
    readonly how: 'complete' | 'cancel',
  ) {}
  check = (m: Readonly<Model>) => m.done.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const id = [...m.done].sort(byId)[this.pick % m.done.length];
    const res =
      this.how === 'complete'
        ? await request(r.t.http).patch(`/store/orders/${id}`).set('X-API-Key', r.writer).send({ complete: true })
        : await request(r.t.http).delete(`/store/orders/${id}`).set('X-API-Key', r.writer);
    expect([res.status, res.body.code]).toEqual([409, 'ORDER_ALREADY_COMPLETE']);
    await agree(m, r);
  }
  toString = () => `${this.how}Completed(#${this.pick})`;
}

class EditStatus implements StoreCommand {
  constructor(readonly status: Status) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const res = await request(r.t.http)
      .patch(`/pets/${r.petId}`)
      .set('X-API-Key', r.writer)
      .send({ status: this.status });
    expect([res.status, res.body.status]).toEqual([200, this.status]);
    m.status = this.status;
    await agree(m, r);
  }
  toString = () => `editStatus(${this.status})`;
}

const commands = fc.commands(
  [
    fc.integer({ min: 0, max: 8 }).map((q) => new Restock(q)),
    fc.integer({ min: 1, max: 4 }).map((q) => new PlaceOrder(q)),
    fc.integer({ min: 1, max: 4 }).map((q) => new PlaceOrder(q)),
    fc.nat().map((pick) => new CompleteOrder(pick)),
    fc.nat().map((pick) => new CancelOrder(pick)),
    fc
      .tuple(fc.nat(), fc.constantFrom('complete' as const, 'cancel' as const))
      .map(([pick, how]) => new CloseCompleted(pick, how)),
    fc.constantFrom(...STATUSES).map((s) => new EditStatus(s)),
  ],
  { maxCommands: 20, size: 'max' },
);

describe('store state machine, model-based (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let writer: string;
  let categoryId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    ({ admin, writer, categoryId } = await storeSetup(t, 'Fish'));
  });
  afterAll(() => t.close());

  it('agrees with API.md section 3 after every step of random command sequences', async () => {
    let runs = 0;
    checks = 0;
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        runs++;
        const setup = async () => {
          // A fresh pet per run: available, stock 0, no orders.
          const petId = await createPet(t, writer, { name: 'Nemo', categoryId });
          const model: Model = { quantity: 0, status: 'available', open: new Map(), done: [] };
          const real: Real = { t, petId, admin, writer };
          await agree(model, real);
          return { model, real };
        };
        await fc.asyncModelRun(setup, cmds);
      }),
      { numRuns: 25 },
    );
    console.log(`[store-model] runs=${runs} commands=${checks - runs}`);
  }, 300_000);
});
