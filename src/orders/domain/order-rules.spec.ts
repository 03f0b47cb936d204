import fc from 'fast-check';
import { PET_STATUSES, type PetStatus } from '../../pets/index.js';
import { InsufficientStockError, type InventoryLine, restock } from '../../inventory/index.js';
import { cancelOrder, completeOrder, placeOrder } from './order-rules.js';
import { PetNotAvailableError } from './order.errors.js';

const line = (quantity: number, status: PetStatus = 'available', openOrders = 0): InventoryLine =>
  Object.freeze({ petId: 7, quantity, status, openOrders });

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('order rules on the inventory line (API.md section 3)', () => {
  describe('placeOrder', () => {
    it('reduces stock and counts the order while units remain; the pet stays available', () => {
      expect(placeOrder(line(5), 2)).toEqual({ petId: 7, quantity: 3, status: 'available', openOrders: 1 });
    });

    it('makes the pet pending when the last unit is ordered', () => {
      expect(placeOrder(line(3, 'available', 2), 3)).toEqual({
        petId: 7,
        quantity: 0,
        status: 'pending',
        openOrders: 3,
      });
    });

    it.each(['pending', 'sold'] as const)('refuses a %s pet with PET_NOT_AVAILABLE (409)', (status) => {
      const error = thrown(() => placeOrder(line(10, status), 1));
      expect(error).toBeInstanceOf(PetNotAvailableError);
      expect(error).toMatchObject({ code: 'PET_NOT_AVAILABLE', kind: 'conflict' });
      expect((error as Error).message).toContain(status);
    });

    it('refuses more units than in stock with INSUFFICIENT_STOCK (409)', () => {
      const error = thrown(() => placeOrder(line(2), 3));
      expect(error).toBeInstanceOf(InsufficientStockError);
      expect(error).toMatchObject({ code: 'INSUFFICIENT_STOCK', kind: 'conflict' });
    });

    it('refuses an available pet with no stock at all with INSUFFICIENT_STOCK', () => {
      expect(thrown(() => placeOrder(line(0), 1))).toBeInstanceOf(InsufficientStockError);
    });

    it('checks availability before stock', () => {
      expect(thrown(() => placeOrder(line(0, 'sold'), 1))).toBeInstanceOf(PetNotAvailableError);
    });

    it('does not modify the given line', () => {
      const before = line(5);
      placeOrder(before, 1);
      expect(before).toEqual(line(5));
    });
  });

  describe('completeOrder', () => {
    it('sells the pet when stock is 0 and no other order is open', () => {
      expect(completeOrder(line(0, 'pending', 1))).toEqual({ petId: 7, quantity: 0, status: 'sold', openOrders: 0 });
    });

    it('keeps the pet pending while other orders are still open', () => {
      expect(completeOrder(line(0, 'pending', 2))).toEqual({
        petId: 7,
        quantity: 0,
        status: 'pending',
        openOrders: 1,
      });
    });

    it('keeps the status while stock remains', () => {
      expect(completeOrder(line(4, 'available', 1))).toEqual({
        petId: 7,
        quantity: 4,
        status: 'available',
        openOrders: 0,
      });
    });

    it('leaves a staff-set status alone while stock remains', () => {
      expect(completeOrder(line(4, 'pending', 1)).status).toBe('pending');
      expect(completeOrder(line(4, 'sold', 1)).status).toBe('sold');
    });

    it('sells even a pet staff set back to available, once stock is 0 and nothing is open', () => {
      expect(completeOrder(line(0, 'available', 1)).status).toBe('sold');
    });

    it('never changes the stock count', () => {
      expect(completeOrder(line(9, 'available', 3)).quantity).toBe(9);
    });
  });

  describe('cancelOrder', () => {
    it('returns the units to stock and makes a pending pet available', () => {
      expect(cancelOrder(line(0, 'pending', 1), 3)).toEqual({
        petId: 7,
        quantity: 3,
        status: 'available',
        openOrders: 0,
      });
    });

    it('keeps an available pet available', () => {
      expect(cancelOrder(line(2, 'available', 2), 1)).toEqual({
        petId: 7,
        quantity: 3,
        status: 'available',
        openOrders: 1,
      });
    });

    it('keeps a sold pet sold (units still return)', () => {
      expect(cancelOrder(line(0, 'sold', 1), 4)).toEqual({ petId: 7, quantity: 4, status: 'sold', openOrders: 0 });
    });
  });

  describe('properties', () => {
    const status = fc.constantFrom(...PET_STATUSES);
    const anyLine = fc.record({
      petId: fc.integer({ min: 1, max: 1_000_000 }),
      quantity: fc.integer({ min: 0, max: 1_000_000 }),
      status,
      openOrders: fc.integer({ min: 0, max: 50 }),
    });

    type Event =
      | { kind: 'place'; units: number }
      | { kind: 'complete' }
      | { kind: 'cancel' }
      | { kind: 'restock'; quantity: number }
      | { kind: 'edit'; status: PetStatus };
    const event: fc.Arbitrary<Event> = fc.oneof(
      fc.record({ kind: fc.constant('place' as const), units: fc.integer({ min: 1, max: 1000 }) }),
      fc.constant({ kind: 'complete' as const }),
      fc.constant({ kind: 'cancel' as const }),
      fc.record({ kind: fc.constant('restock' as const), quantity: fc.integer({ min: 0, max: 2000 }) }),
      fc.record({ kind: fc.constant('edit' as const), status }),
    );

    /** Applies events the way the service does; returns the line and the still-open orders' units. */
    function run(start: InventoryLine, events: Event[]): { line: InventoryLine; open: number[] } {
      let current = start;
      const open: number[] = [];
      for (const e of events) {
        try {
          if (e.kind === 'place') {
            current = placeOrder(current, e.units);
            open.push(e.units);
          } else if (e.kind === 'complete' && open.length > 0) {
            open.shift();
            current = completeOrder(current);
          } else if (e.kind === 'cancel' && open.length > 0) {
            current = cancelOrder(current, open.pop()!);
          } else if (e.kind === 'restock') {
            current = restock(current, e.quantity);
          } else if (e.kind === 'edit') {
            current = { ...current, status: e.status };
          }
        } catch (error) {
          if (!(error instanceof PetNotAvailableError || error instanceof InsufficientStockError)) throw error;
        }
        expect(current.quantity).toBeGreaterThanOrEqual(0);
        expect(current.openOrders).toBe(open.length);
      }
      return { line: current, open };
    }

    it('stock is never negative, whatever the events', () => {
      fc.assert(
        fc.property(fc.array(event, { maxLength: 60 }), fc.integer({ min: 0, max: 3000 }), (events, initial) => {
          run(line(initial, 'available', 0), events);
        }),
      );
    });

    it('placeOrder either refuses or leaves a non-negative stock with the units taken', () => {
      fc.assert(
        fc.property(anyLine, fc.integer({ min: 1, max: 1000 }), (start, units) => {
          let next: InventoryLine;
          try {
            next = placeOrder(start, units);
          } catch (error) {
            expect(error instanceof PetNotAvailableError || error instanceof InsufficientStockError).toBe(true);
            expect(start.status !== 'available' || start.quantity < units).toBe(true);
            return;
          }
          expect(next.quantity).toBe(start.quantity - units);
          expect(next.quantity).toBeGreaterThanOrEqual(0);
          expect(next.status).toBe(next.quantity === 0 ? 'pending' : 'available');
        }),
      );
    });

    it('conserves units: stock plus open-order units is constant across places and cancels', () => {
      const placeOrCancel = fc.oneof(
        fc.record({ kind: fc.constant('place' as const), units: fc.integer({ min: 1, max: 50 }) }),
        fc.constant({ kind: 'cancel' as const }),
      );
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 500 }), fc.array(placeOrCancel, { maxLength: 80 }), (initial, events) => {
          const { line: end, open } = run(line(initial, 'available', 0), events);
          expect(end.quantity + open.reduce((a, b) => a + b, 0)).toBe(initial);
        }),
      );
    });

    it('cancelling every open order restores the initial stock and availability', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 500 }),
          fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 30 }),
          (initial, orders) => {
            const placed = run(
              line(initial),
              orders.map((units) => ({ kind: 'place' as const, units })),
            );
            let end = placed.line;
            for (const units of [...placed.open].reverse()) end = cancelOrder(end, units);
            expect(end).toEqual({ petId: 7, quantity: initial, status: 'available', openOrders: 0 });
          },
        ),
      );
    });

    it('every transition keeps the status one of the three PetStatus values', () => {
      fc.assert(
        fc.property(anyLine, fc.integer({ min: 0, max: 1000 }), (start, n) => {
          const results: InventoryLine[] = [
            completeOrder(start),
            cancelOrder(start, Math.max(1, n)),
            restock(start, n),
          ];
          for (const r of results) expect(PET_STATUSES).toContain(r.status);
        }),
      );
    });
  });
});
