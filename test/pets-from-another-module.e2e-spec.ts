import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { InventoryModule, InventoryService } from '../src/inventory/index.js';
import type { OrderPlaced } from '../src/orders/index.js';
import { PetsModule, PetsService } from '../src/pets/index.js';
import { DomainEventSubscriptions } from '../src/shared/domain-events/domain-events.js';
import type { DomainEvent } from '../src/shared/domain-events/domain-event.js';
import { UnitOfWork } from '../src/shared/unit-of-work/unit-of-work.js';
import { KEY } from './support/http.js';
import { createCategory, createPet, putStock } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * What docs/extending.md ("Changing pets and stock") tells a module that changes
 * pets: plain imports of PetsModule and InventoryModule; InventoryService.changeLine
 * in its own unit of work or in a subscriber's; PetsService's use cases outside one.
 */
@Injectable()
class DisplayService implements OnModuleInit {
  /** Pets whose every order also takes one unit for the shop window. */
  readonly onDisplay = new Set<number>();

  constructor(
    readonly pets: PetsService,
    readonly inventory: InventoryService,
    readonly uow: UnitOfWork,
    private readonly events: DomainEventSubscriptions,
  ) {}

  onModuleInit(): void {
    this.events.subscribe<OrderPlaced>('OrderPlaced', async (order, tx) => {
      if (!this.onDisplay.has(order.petId)) return;
      await this.inventory.changeLine(tx, order.petId, (line) => ({ quantity: line.quantity - 1 }));
    });
  }

  /** Takes a pet off sale and keeps one unit aside, in one transaction; `fail` makes it throw after both. */
  reserve(petId: number, fail = false): Promise<void> {
    return this.uow.run(async (tx) => {
      await this.inventory.changeLine(tx, petId, (line) => ({ status: 'pending', quantity: line.quantity - 1 }), 7);
      if (fail) throw new Error('reservation failed after its changes');
    });
  }
}

@Module({ imports: [PetsModule, InventoryModule], providers: [DisplayService], exports: [DisplayService] })
class DisplayModule {}

describe("changing pets and stock from another module's unit of work (e2e)", () => {
  let t: TestApp;
  let admin: string;
  let display: DisplayService;
  let petId: number;
  const recorded: DomainEvent[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, { rootModule: AppModule.register({ modules: [DisplayModule] }) });
    display = t.app.get(DisplayService);
    const events = t.app.get(DomainEventSubscriptions);
    for (const type of ['PetStatusChanged', 'InventoryChanged']) {
      events.subscribe(type, async (event) => void recorded.push(event));
    }
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    recorded.length = 0;
    display.onDisplay.clear();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise');
    petId = await createPet(t, admin, { name: 'Rex', categoryId: await createCategory(t, admin, 'Dogs') });
    await putStock(t, admin, petId, 5).expect(200);
    recorded.length = 0;
  });

  const item = async () => (await request(t.http).get(`/store/inventory/${petId}`).set(KEY, admin).expect(200)).body;

  it('changes status and stock in its own unit of work, recording the events of both', async () => {
    await display.reserve(petId);
    expect(await item()).toEqual({ petId, quantity: 4, status: 'pending' });
    expect(recorded.map((e) => e.type).sort()).toEqual(['InventoryChanged', 'PetStatusChanged']);
    expect(recorded.every((e) => e.actorKeyId === 7)).toBe(true);
  });

  it('changes nothing when its unit of work fails', async () => {
    await expect(display.reserve(petId, true)).rejects.toThrow('reservation failed');
    expect(await item()).toEqual({ petId, quantity: 5, status: 'available' });
  });

  it("changes the ordered pet's stock in the order's own transaction, and the order fails with it", async () => {
    display.onDisplay.add(petId);
    await request(t.http).post('/store/orders').set(KEY, admin).send({ petId, quantity: 2 }).expect(201);
    expect(await item()).toEqual({ petId, quantity: 2, status: 'available' });

    // 2 left: the order may take them, but not the window's unit too: refused, nothing changed.
    const refused = await request(t.http).post('/store/orders').set(KEY, admin).send({ petId, quantity: 2 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INSUFFICIENT_STOCK');
    expect(await item()).toEqual({ petId, quantity: 2, status: 'available' });
  });

  it("injects PetsService by importing PetsModule, and refuses its use cases inside the caller's unit of work", async () => {
    await display.pets.patch(petId, { name: 'Rex II' });
    expect((await display.pets.get(petId)).name).toBe('Rex II');
    await expect(display.uow.run(() => display.pets.patch(petId, { status: 'sold' }))).rejects.toThrow(
      /started inside another one/,
    );
    expect((await display.pets.get(petId)).status).toBe('available');
  });

  it('answers 404 for a pet that does not exist, changing nothing', async () => {
    await expect(display.reserve(petId + 1000)).rejects.toMatchObject({ code: 'PET_NOT_FOUND' });
  });
});
