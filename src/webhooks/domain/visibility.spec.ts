import { type NewStoreEvent, toStoreEvent } from './store-event.js';
import { canSee } from './visibility.js';

const at = new Date('2026-11-21T10:00:00Z');
const alice = { keyId: 1, admin: false };
const bob = { keyId: 2, admin: false };
const admin = { keyId: 3, admin: true };

const published = (event: object): NewStoreEvent => {
  const result = toStoreEvent({ occurredAt: at, actorKeyId: 3, ...event } as never);
  if (!result) throw new Error('not published');
  return result;
};

describe('event visibility', () => {
  const placed = published({ type: 'OrderPlaced', orderId: 5, petId: 7, quantity: 2, ownerKeyId: 1 });
  const stock = published({
    type: 'InventoryChanged',
    petId: 7,
    oldQuantity: 3,
    newQuantity: 1,
    oldStatus: 'available',
    newStatus: 'available',
  });
  const status = published({ type: 'PetStatusChanged', petId: 7, oldStatus: 'available', newStatus: 'sold' });

  it("shows an order's events to its owner and to admin keys only", () => {
    expect([alice, bob, admin].map((viewer) => canSee(viewer, placed))).toEqual([true, false, true]);
  });

  it('shows catalogue events to every key', () => {
    for (const viewer of [alice, bob, admin]) {
      expect(canSee(viewer, stock)).toBe(true);
      expect(canSee(viewer, status)).toBe(true);
    }
  });

  it('publishes the payloads clients need, the owner kept apart from the data', () => {
    expect(placed).toEqual({
      type: 'order.placed',
      occurredAt: at,
      ownerKeyId: 1,
      data: { orderId: 5, petId: 7, quantity: 2 },
    });
    expect(stock.data).toEqual({
      petId: 7,
      oldQuantity: 3,
      newQuantity: 1,
      oldStatus: 'available',
      newStatus: 'available',
    });
    const completed = published({
      type: 'OrderCompleted',
      orderId: 5,
      petId: 7,
      quantity: 2,
      ownerKeyId: 1,
      shipDate: at,
    });
    expect(completed).toMatchObject({ type: 'order.completed', data: { shipDate: at.toISOString() } });
    expect(toStoreEvent({ type: 'ExampleLoyaltyEarned', occurredAt: at, actorKeyId: null })).toBeNull();
  });

  describe('catalogue changes', () => {
    const rex = { id: 7, name: 'Rex', categoryId: 2, status: 'sold' };
    const dogs = { id: 2, name: 'Dogs', description: 'Loyal' };
    const cats = { id: 3, name: 'Cats' };

    it.each([
      ['PetCreated', 'pet.created'],
      ['PetUpdated', 'pet.updated'],
      ['PetDeleted', 'pet.deleted'],
    ])('publishes %s as %s with the pet as the API returns it, to every key', (type, published_) => {
      const event = published({ type, pet: { ...rex, internal: 'not for clients' } });
      expect(event).toEqual({ type: published_, occurredAt: at, ownerKeyId: null, data: rex });
      for (const viewer of [alice, bob, admin]) expect(canSee(viewer, event)).toBe(true);
    });

    it.each([
      ['CategoryCreated', 'category.created'],
      ['CategoryUpdated', 'category.updated'],
      ['CategoryDeleted', 'category.deleted'],
    ])('publishes %s as %s with the category as the API returns it, to every key', (type, published_) => {
      expect(published({ type, category: dogs })).toEqual({
        type: published_,
        occurredAt: at,
        ownerKeyId: null,
        data: dogs,
      });
      const withoutDescription = published({ type, category: cats });
      expect(withoutDescription.data).toStrictEqual({ id: 3, name: 'Cats' });
      for (const viewer of [alice, bob, admin]) expect(canSee(viewer, withoutDescription)).toBe(true);
    });
  });
});
