import { jest } from '@jest/globals';
import pg from 'pg';
import { managerOf, preparedRowsIn, preparedStepsIn, runAtCommit } from '../src/database/typeorm-transaction.js';
import { TURNS_AT_ONCE } from '../src/database/typeorm-unit-of-work.js';
import { type Transaction, UNIT_OF_WORK, type UnitOfWork } from '../src/shared/unit-of-work/unit-of-work.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The TypeORM unit of work on PostgreSQL: what a use case writes and what is
 * deferred to its COMMIT (the outbox) commit together or not at all, and a
 * failure at the commit leaves no connection of the pool inside a transaction.
 * BEGIN travels with the first statement, whichever way it is sent.
 */
describe('TypeORM unit of work', () => {
  let t: TestApp;
  let uow: UnitOfWork;

  beforeAll(async () => {
    t = await createTestApp();
    uow = t.app.get<UnitOfWork>(UNIT_OF_WORK);
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const INSERT_AT_COMMIT = { name: 'test_uow_insert_at_commit', text: 'INSERT INTO categories (name) VALUES ($1)' };
  const insertAtCommit = (tx: Transaction, name: string | null): void => runAtCommit(tx, INSERT_AT_COMMIT, [name]);

  const categories = async (): Promise<string[]> =>
    ((await t.db.query('SELECT name FROM categories ORDER BY id')) as Array<{ name: string }>).map((r) => r.name);

  it('commits the work and the statements deferred to the commit together', async () => {
    await uow.run(async (tx) => {
      await (await managerOf(tx, t.db.manager)).query(`INSERT INTO categories (name) VALUES ('work')`);
      insertAtCommit(tx, 'at commit 1');
      insertAtCommit(tx, 'at commit 2');
      // Deferred: not run yet, so the transaction does not see it.
      expect(await (await managerOf(tx, t.db.manager)).query(`SELECT count(*)::int AS n FROM categories`)).toEqual([
        { n: 1 },
      ]);
    });
    expect(await categories()).toEqual(['work', 'at commit 1', 'at commit 2']);
  });

  it('rolls the work back when a deferred statement fails, and every pooled connection is usable after', async () => {
    const failing = uow.run(async (tx) => {
      await (await managerOf(tx, t.db.manager)).query(`INSERT INTO categories (name) VALUES ('work')`);
      insertAtCommit(tx, 'before the failure');
      insertAtCommit(tx, null); // NOT NULL violation
      insertAtCommit(tx, 'after the failure');
    });
    await expect(failing).rejects.toThrow(/null value/);
    expect(await categories()).toEqual([]);

    // More transactions than the pool has connections: none starts inside an aborted one.
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        uow.run(async (tx) => {
          insertAtCommit(tx, `next ${i}`);
          return Promise.resolve();
        }),
      ),
    );
    expect(await categories()).toHaveLength(25);
  });

  it('never runs the deferred statements of work that throws', async () => {
    const refused = uow.run(async (tx) => {
      insertAtCommit(tx, 'deferred');
      await (await managerOf(tx, t.db.manager)).query(`INSERT INTO categories (name) VALUES ('work')`);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await categories()).toEqual([]);
  });

  const INSERT_NAMED = {
    name: 'test_uow_insert_category',
    text: 'INSERT INTO categories (name, description) VALUES ($1, $2) RETURNING name, description',
  };

  it('opens the transaction with its first statement: a prepared statement sent first is undone by a rollback', async () => {
    const refused = uow.run(async (tx) => {
      await preparedRowsIn(tx, INSERT_NAMED, ['first', null]);
      await (await managerOf(tx, t.db.manager)).query(`INSERT INTO categories (name) VALUES ('second')`);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await categories()).toEqual([]);
  });

  it('sends the values of a statement as parameters, never as text of the statement', async () => {
    const hostile = ["it's'); DROP TABLE categories; --", "back\\slash \\' and $2 and \u00e9"];
    const [first] = await uow.run((tx) =>
      preparedRowsIn<{ name: string; description: string }>(tx, INSERT_NAMED, hostile),
    );
    expect(first).toEqual({ name: hostile[0], description: hostile[1] });
    // The same statement again in one transaction: the first with BEGIN, the second alone.
    const again = [`${hostile[0]} again`, hostile[1]];
    const second = await uow.run(async (tx) => {
      await preparedRowsIn(tx, INSERT_NAMED, ['plain', null]);
      return preparedRowsIn<{ name: string; description: string }>(tx, INSERT_NAMED, again);
    });
    expect(second).toEqual([{ name: again[0], description: again[1] }]);
    expect(await categories()).toEqual([hostile[0], 'plain', again[0]]);
  });

  it('rolls back a first statement that fails, and the connection serves the next transaction', async () => {
    const failing = uow.run((tx) => preparedRowsIn(tx, INSERT_NAMED, [null, null])); // NOT NULL violation
    await expect(failing).rejects.toThrow(/null value/);
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => uow.run((tx) => preparedRowsIn(tx, INSERT_NAMED, [`next ${i}`, null]))),
    );
    expect(await categories()).toHaveLength(25);
  });

  it('opens the transaction with a savepoint when nothing ran before it', async () => {
    await uow.run(async (tx) => {
      await tx.savepoint(() => preparedRowsIn(tx, INSERT_NAMED, ['in the savepoint', null]));
      await tx
        .savepoint(async () => {
          await preparedRowsIn(tx, INSERT_NAMED, ['undone', null]);
          throw new Error('undone');
        })
        .catch(() => undefined);
    });
    expect(await categories()).toEqual(['in the savepoint']);
  });

  it('drops what a rolled-back savepoint deferred, and keeps what came before it', async () => {
    await uow.run(async (tx) => {
      insertAtCommit(tx, 'kept');
      await tx
        .savepoint(() => {
          insertAtCommit(tx, 'dropped');
          return Promise.reject(new Error('undone'));
        })
        .catch(() => undefined);
    });
    expect(await categories()).toEqual(['kept']);
  });

  it('reads, in the step after a lock in one round trip, what the previous holder of the lock committed', async () => {
    await t.db.query(`INSERT INTO categories (name, description) VALUES ('line', 'before')`);
    const LOCK = { name: 'test_uow_lock_category', text: 'SELECT 1 FROM categories WHERE name = $1 FOR UPDATE' };
    const READ = { name: 'test_uow_read_category', text: 'SELECT description FROM categories WHERE name = $1' };
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const first = uow.run(async (tx) => {
      await preparedStepsIn(tx, [{ statement: LOCK, values: ['line'] }]);
      locked();
      await (
        await managerOf(tx, t.db.manager)
      ).query(`UPDATE categories SET description = 'after' WHERE name = 'line'`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    await holding;
    const read = await uow.run(async (tx) => {
      const [lockRows, readRows] = await preparedStepsIn(tx, [
        { statement: LOCK, values: ['line'] },
        { statement: READ, values: ['line'] },
      ]);
      return { lockRows, readRows };
    });
    await first;
    expect(read).toEqual({ lockRows: [{ '?column?': 1 }], readRows: [{ description: 'after' }] });
  });

  describe('round trips', () => {
    /** How many times the pool's connections are asked something while `work` runs: each is one round trip. */
    async function roundTrips(work: () => Promise<unknown>): Promise<number> {
      const asked = jest.spyOn(pg.Client.prototype, 'query');
      try {
        await work();
        return asked.mock.calls.length;
      } finally {
        asked.mockRestore();
      }
    }

    it('sends a savepoint and its release with the next statements, not in round trips of their own', async () => {
      const trips = await roundTrips(() =>
        uow.run(async (tx) => {
          await preparedRowsIn(tx, INSERT_NAMED, ['a', null]);
          await tx.savepoint(() => preparedRowsIn(tx, INSERT_NAMED, ['b', null]));
          insertAtCommit(tx, 'c');
        }),
      );
      expect(trips).toBe(3); // BEGIN + a; SAVEPOINT + b; RELEASE + c + COMMIT
      expect(await categories()).toEqual(['a', 'b', 'c']);
    });

    it('rolls back to a savepoint with the next round trip, after a statement in it failed, and goes on', async () => {
      const trips = await roundTrips(() =>
        uow.run(async (tx) => {
          await preparedRowsIn(tx, INSERT_NAMED, ['a', null]);
          const failed = tx.savepoint(async () => {
            await preparedRowsIn(tx, INSERT_NAMED, ['undone', null]);
            await preparedRowsIn(tx, INSERT_NAMED, [null, null]); // NOT NULL violation: the transaction is aborted
          });
          await expect(failed).rejects.toThrow(/null value/);
          await preparedRowsIn(tx, INSERT_NAMED, ['after', null]);
        }),
      );
      expect(trips).toBe(5); // BEGIN + a; SAVEPOINT + undone; the failure; ROLLBACK TO + after; COMMIT
      expect(await categories()).toEqual(['a', 'after']);
    });

    it('undoes an inner savepoint and keeps the outer one', async () => {
      await uow.run(async (tx) => {
        await tx.savepoint(async () => {
          await preparedRowsIn(tx, INSERT_NAMED, ['outer', null]);
          await tx
            .savepoint(async () => {
              await preparedRowsIn(tx, INSERT_NAMED, ['inner', null]);
              throw new Error('undone');
            })
            .catch(() => undefined);
          insertAtCommit(tx, 'outer at commit');
        });
      });
      expect(await categories()).toEqual(['outer', 'outer at commit']);
    });

    it('sends nothing for a savepoint whose work sent nothing', async () => {
      const trips = await roundTrips(() =>
        uow.run(async (tx) => {
          await preparedRowsIn(tx, INSERT_NAMED, ['a', null]);
          await tx.savepoint(() => Promise.resolve());
          await tx.savepoint(() => Promise.reject(new Error('refused'))).catch(() => undefined);
        }),
      );
      expect(trips).toBe(2); // BEGIN + a; COMMIT
      expect(await categories()).toEqual(['a']);
    });
  });

  describe('turns on one row (turnsOf)', () => {
    /** Units of work that each stay open until released, recording when they begin. */
    function held(turnsOf: string | undefined, began: string[], name: string) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const done = uow.run(
        async (tx) => {
          began.push(name);
          await released;
          insertAtCommit(tx, name);
        },
        turnsOf === undefined ? undefined : { turnsOf },
      );
      return { release, done };
    }
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

    it(`runs ${TURNS_AT_ONCE} at once on one row, the next in arrival order, others without waiting`, async () => {
      const began: string[] = [];
      const line = ['a', 'b', 'c', 'd'].map((name) => held('row 1', began, name));
      const other = held('row 2', began, 'other');
      const free = held(undefined, began, 'free');
      await settle();
      expect([...began].sort()).toEqual(['a', 'b', 'free', 'other']);
      line[1].release();
      await settle();
      expect(began.slice(4)).toEqual(['c']);
      line[0].release();
      await settle();
      expect(began.slice(4)).toEqual(['c', 'd']);
      for (const unit of [...line, other, free]) unit.release();
      await Promise.all([...line, other, free].map((unit) => unit.done));
      expect(await categories()).toHaveLength(6);
    });

    it('gives the turn on when a unit of work fails', async () => {
      const failing = [1, 2, 3].map(() => uow.run(() => Promise.reject(new Error('refused')), { turnsOf: 'row 3' }));
      await Promise.all(failing.map((run) => expect(run).rejects.toThrow('refused')));
      await uow.run(async (tx) => insertAtCommit(tx, 'after'), {
        turnsOf: 'row 3',
      });
      expect(await categories()).toEqual(['after']);
    });
  });
});
