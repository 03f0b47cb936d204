import { managerOf, runAtCommit } from '../src/database/typeorm-transaction.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../src/shared/unit-of-work/unit-of-work.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The TypeORM unit of work on PostgreSQL: what a use case writes and what is
 * deferred to its COMMIT (the outbox) commit together or not at all, and a
 * failure at the commit leaves no connection of the pool inside a transaction.
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

  const categories = async (): Promise<string[]> =>
    ((await t.db.query('SELECT name FROM categories ORDER BY id')) as Array<{ name: string }>).map((r) => r.name);

  it('commits the work and the statements deferred to the commit together', async () => {
    await uow.run(async (tx) => {
      await managerOf(tx, t.db.manager).query(`INSERT INTO categories (name) VALUES ('work')`);
      runAtCommit(tx, `INSERT INTO categories (name) VALUES ('at commit 1')`);
      runAtCommit(tx, `INSERT INTO categories (name) VALUES ('at commit 2')`);
      // Deferred: not run yet, so the transaction does not see it.
      expect(await managerOf(tx, t.db.manager).query(`SELECT count(*)::int AS n FROM categories`)).toEqual([{ n: 1 }]);
    });
    expect(await categories()).toEqual(['work', 'at commit 1', 'at commit 2']);
  });

  it('rolls the work back when a deferred statement fails, and every pooled connection is usable after', async () => {
    const failing = uow.run(async (tx) => {
      await managerOf(tx, t.db.manager).query(`INSERT INTO categories (name) VALUES ('work')`);
      runAtCommit(tx, `INSERT INTO categories (name) VALUES ('before the failure')`);
      runAtCommit(tx, `INSERT INTO categories (name) VALUES (NULL)`); // NOT NULL violation
      runAtCommit(tx, `INSERT INTO categories (name) VALUES ('after the failure')`);
    });
    await expect(failing).rejects.toThrow(/null value/);
    expect(await categories()).toEqual([]);

    // More transactions than the pool has connections: none starts inside an aborted one.
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        uow.run(async (tx) => {
          runAtCommit(tx, `INSERT INTO categories (name) VALUES ('next ${i}')`);
          return Promise.resolve();
        }),
      ),
    );
    expect(await categories()).toHaveLength(25);
  });

  it('never runs the deferred statements of work that throws', async () => {
    const refused = uow.run(async (tx) => {
      runAtCommit(tx, `INSERT INTO categories (name) VALUES ('deferred')`);
      await managerOf(tx, t.db.manager).query(`INSERT INTO categories (name) VALUES ('work')`);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await categories()).toEqual([]);
  });

  it('drops what a rolled-back savepoint deferred, and keeps what came before it', async () => {
    await uow.run(async (tx) => {
      runAtCommit(tx, `INSERT INTO categories (name) VALUES ('kept')`);
      await tx
        .savepoint(() => {
          runAtCommit(tx, `INSERT INTO categories (name) VALUES ('dropped')`);
          return Promise.reject(new Error('undone'));
        })
        .catch(() => undefined);
    });
    expect(await categories()).toEqual(['kept']);
  });
});
