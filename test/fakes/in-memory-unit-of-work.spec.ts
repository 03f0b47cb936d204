import { InMemoryTables } from './in-memory-tables.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';

/** A module's own fake keeps its table as `tables.table(name)`: no subclass of the tables needed. */
describe('InMemoryUnitOfWork with a table of a module of its own', () => {
  let tables: InMemoryTables;
  let uow: InMemoryUnitOfWork;
  let points: Map<number, number>;
  const failure = new Error('refused');

  beforeEach(() => {
    tables = new InMemoryTables();
    uow = new InMemoryUnitOfWork(tables);
    points = tables.table<number, number>('example_points');
    points.set(1, 10);
    tables.inventory.set(7, 5);
  });

  it('gives the same table for the same name, and another for another name', () => {
    expect(tables.table('example_points')).toBe(points);
    expect(tables.table('example_other')).not.toBe(points);
  });

  it('rolls the table back with the core ones when the transaction fails, in the map the fake holds', async () => {
    await expect(
      uow.run(async () => {
        points.set(1, 30);
        points.set(2, 5);
        tables.inventory.set(7, 4);
        throw failure;
      }),
    ).rejects.toBe(failure);

    expect([...points]).toEqual([[1, 10]]);
    expect(tables.table('example_points')).toBe(points);
    expect(tables.inventory.get(7)).toBe(5);
    expect(uow.rollbacks).toBe(1);
  });

  it('empties a table first used inside the failed transaction', async () => {
    await expect(
      uow.run(async () => {
        tables.table<string, string>('example_late').set('a', 'b');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(tables.table('example_late').size).toBe(0);
  });

  it("undoes only a failed savepoint's writes to the table, and commits the rest", async () => {
    await uow.run(async (tx) => {
      points.set(1, 20);
      await expect(
        tx.savepoint(async () => {
          points.set(1, 0);
          points.set(3, 1);
          tables.inventory.set(7, 0);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect([...points]).toEqual([[1, 20]]);
    });

    expect([...points]).toEqual([[1, 20]]);
    expect(tables.inventory.get(7)).toBe(5);
    expect(uow.commits).toBe(1);
  });

  it('keeps what a committed transaction wrote, and never rolls a sequence back', async () => {
    await uow.run(async () => void points.set(2, 1));
    await expect(
      uow.run(async () => {
        tables.nextId('orders');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect([...points]).toEqual([
      [1, 10],
      [2, 1],
    ]);
    expect(tables.nextId('orders')).toBe(2);
  });
});
