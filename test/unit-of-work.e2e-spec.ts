import { managerOf, TRANSACTIONS_AT_ONCE } from '../src/database/index.js';
import { DomainEventSubscriptions } from '../src/shared/domain-events/domain-events.js';
import { type Transaction, UnitOfWork } from '../src/shared/unit-of-work/unit-of-work.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The TypeORM unit of work on PostgreSQL: what a use case and the subscribers of
 * its events write commits together or not at all, savepoints undo only their own
 * writes (and events), and a failure leaves no connection of the pool inside a
 * transaction.
 */
describe('TypeORM unit of work', () => {
  let t: TestApp;
  let uow: UnitOfWork;

  beforeAll(async () => {
    t = await createTestApp();
    uow = t.app.get(UnitOfWork);
    // Subscribers of a test event: one writes in the transaction, one fails it on demand.
    const events = t.app.get(DomainEventSubscriptions);
    events.subscribe<TestEvent>('UnitOfWorkTestEvent', async (event, tx) => {
      if (event.name === null) throw new Error('subscriber refused');
      await insert(tx, event.name);
    });
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  interface TestEvent {
    readonly type: 'UnitOfWorkTestEvent';
    readonly occurredAt: Date;
    readonly actorKeyId: null;
    readonly name: string | null;
  }
  const event = (name: string | null): TestEvent => ({
    type: 'UnitOfWorkTestEvent',
    occurredAt: new Date(),
    actorKeyId: null,
    name,
  });

  const INSERT = 'INSERT INTO categories (name, description) VALUES ($1, $2) RETURNING name, description';
  const insert = async (tx: Transaction, name: string | null, description: string | null = null) =>
    await managerOf(tx).query<Array<{ name: string; description: string | null }>>(INSERT, [name, description]);

  const categories = async (): Promise<string[]> =>
    (await t.db.query<Array<{ name: string }>>('SELECT name FROM categories ORDER BY id')).map((r) => r.name);

  it('commits the work and what the subscribers of its events write together, in the transaction', async () => {
    await uow.run(async (tx) => {
      await insert(tx, 'work');
      tx.record(event('from a subscriber'));
      // Subscribers run once the work is done, before the commit.
      expect(await managerOf(tx).query(`SELECT count(*)::int AS n FROM categories`)).toEqual([{ n: 1 }]);
    });
    expect(await categories()).toEqual(['work', 'from a subscriber']);
  });

  it('rolls the work back when a subscriber fails, and every pooled connection is usable after', async () => {
    const failing = uow.run(async (tx) => {
      await insert(tx, 'work');
      tx.record(event('before the failure'));
      tx.record(event(null));
    });
    await expect(failing).rejects.toThrow('subscriber refused');
    expect(await categories()).toEqual([]);

    // More transactions than the pool has connections: none starts inside an aborted one.
    await Promise.all(Array.from({ length: 25 }, (_, i) => uow.run((tx) => insert(tx, `next ${i}`))));
    expect(await categories()).toHaveLength(25);
  });

  it('writes nothing, and dispatches no event, for work that throws', async () => {
    const refused = uow.run(async (tx) => {
      tx.record(event('recorded'));
      await insert(tx, 'work');
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await categories()).toEqual([]);
  });

  it('sends the values of a statement as parameters, never as text of the statement', async () => {
    const hostile = ["it's'); DROP TABLE categories; --", "back\\slash \\' and $2 and \u00e9"];
    const [first] = await uow.run((tx) => insert(tx, hostile[0], hostile[1]));
    expect(first).toEqual({ name: hostile[0], description: hostile[1] });
    expect(await categories()).toEqual([hostile[0]]);
  });

  it('rolls back a statement that fails, and the connection serves the next transaction', async () => {
    await expect(uow.run((tx) => insert(tx, null))).rejects.toThrow(/null value/); // NOT NULL violation
    await Promise.all(Array.from({ length: 25 }, (_, i) => uow.run((tx) => insert(tx, `next ${i}`))));
    expect(await categories()).toHaveLength(25);
  });

  it('undoes a failed savepoint (its writes and events) and keeps what came before and after it', async () => {
    await uow.run(async (tx) => {
      await insert(tx, 'a');
      tx.record(event('kept event'));
      const failed = tx.savepoint(async () => {
        await insert(tx, 'undone');
        tx.record(event('dropped event'));
        await insert(tx, null); // NOT NULL violation: the transaction is aborted up to the savepoint
      });
      await expect(failed).rejects.toThrow(/null value/);
      await insert(tx, 'after');
    });
    expect(await categories()).toEqual(['a', 'after', 'kept event']);
  });

  it('keeps a savepoint that succeeds, and undoes an inner one inside it', async () => {
    await uow.run(async (tx) => {
      await tx.savepoint(async () => {
        await insert(tx, 'outer');
        await tx
          .savepoint(async () => {
            await insert(tx, 'inner');
            throw new Error('undone');
          })
          .catch(() => undefined);
        await insert(tx, 'outer again');
      });
    });
    expect(await categories()).toEqual(['outer', 'outer again']);
  });

  it('reads, in a statement after a lock, what the previous holder of the lock committed', async () => {
    await t.db.query(`INSERT INTO categories (name, description) VALUES ('line', 'before')`);
    const LOCK = 'SELECT 1 AS locked FROM categories WHERE name = $1 FOR UPDATE';
    const READ = 'SELECT description FROM categories WHERE name = $1';
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const first = uow.run(async (tx) => {
      await managerOf(tx).query(LOCK, ['line']);
      locked();
      await managerOf(tx).query(`UPDATE categories SET description = 'after' WHERE name = 'line'`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    await holding;
    const read = await uow.run(async (tx) => {
      const lockRows: unknown = await managerOf(tx).query(LOCK, ['line']);
      const readRows: unknown = await managerOf(tx).query(READ, ['line']);
      return { lockRows, readRows };
    });
    await first;
    expect(read).toEqual({ lockRows: [{ locked: 1 }], readRows: [{ description: 'after' }] });
  });

  it(`runs at most ${TRANSACTIONS_AT_ONCE} transactions at once, the others after them, all committed`, async () => {
    let inWork = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        uow.run(async (tx) => {
          most = Math.max(most, ++inWork);
          await insert(tx, `unit ${i}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inWork--;
        }),
      ),
    );
    expect(most).toBe(TRANSACTIONS_AT_ONCE);
    expect(await categories()).toHaveLength(30);
  });

  it('refuses a transaction of another unit of work', () => {
    const foreign: Transaction = { savepoint: (work) => work(), record: () => undefined };
    expect(() => managerOf(foreign)).toThrow(TypeError);
  });

  describe('started inside another', () => {
    it('is refused at once, naming the mistake, and the outer one rolls back', async () => {
      const started = Date.now();
      const outer = uow.run(async (tx) => {
        await insert(tx, 'outer');
        await uow.run((inner) => insert(inner, 'inner'));
      });
      await expect(outer).rejects.toThrow(/unit of work was started inside another one.*pass its `tx`/s);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await categories()).toEqual([]);
    });

    it('is refused from a subscriber of the outer one, which is handed its tx', async () => {
      const events = t.app.get(DomainEventSubscriptions);
      let refusal: unknown;
      events.subscribe<TestEvent>('UnitOfWorkTestEvent', async (event) => {
        if (event.name !== 'nesting subscriber') return;
        refusal = await uow.run(async () => undefined).catch((error: unknown) => error);
      });
      await uow.run(async (tx) => tx.record(event('nesting subscriber')));
      expect(refusal).toBeInstanceOf(Error);
      expect((refusal as Error).name).toBe('NestedUnitOfWorkError');
    });

    it('is not what a callback the outer one scheduled does once it ended', async () => {
      let later: Promise<void> | undefined;
      await uow.run(async (tx) => {
        await insert(tx, 'outer');
        later = new Promise<void>((resolve) => setTimeout(resolve, 10)).then(() =>
          uow.run(async (own) => void (await insert(own, 'after it'))),
        );
      });
      await later;
      expect(await categories()).toEqual(['outer', 'after it']);
    });

    it('runs side by side with others, each in its own transaction', async () => {
      await Promise.all([uow.run((tx) => insert(tx, 'one')), uow.run((tx) => insert(tx, 'two'))]);
      expect((await categories()).sort()).toEqual(['one', 'two']);
    });
  });
});
