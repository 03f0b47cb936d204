import { PET_STATUSES, type PetStatus } from '../../pets/index.js';
import { type InventoryLine, restock } from './inventory-line.js';

const line = (quantity: number, status: PetStatus = 'available', openOrders = 0): InventoryLine =>
  Object.freeze({ petId: 7, quantity, status, openOrders });

describe('inventory line (API.md section 3)', () => {
  describe('restock', () => {
    it.each(PET_STATUSES)('with units makes a %s pet available', (status) => {
      expect(restock(line(0, status, 1), 10)).toEqual({ petId: 7, quantity: 10, status: 'available', openOrders: 1 });
    });

    it('sets the count, it does not add to it', () => {
      expect(restock(line(5), 2).quantity).toBe(2);
    });

    it('to 0 makes an available pet pending while it has open orders', () => {
      expect(restock(line(5, 'available', 2), 0)).toEqual({ petId: 7, quantity: 0, status: 'pending', openOrders: 2 });
    });

    it('to 0 makes an available pet without open orders sold', () => {
      expect(restock(line(5, 'available', 0), 0)).toEqual({ petId: 7, quantity: 0, status: 'sold', openOrders: 0 });
    });

    it.each([
      ['pending', 0],
      ['pending', 2],
      ['sold', 0],
      ['sold', 2],
    ] as const)('to 0 leaves a %s pet (%i open orders) unchanged', (status, openOrders) => {
      expect(restock(line(5, status, openOrders), 0)).toEqual({ petId: 7, quantity: 0, status, openOrders });
    });
  });
});
