import type pg from 'pg';
import { Pipeline } from '../src/database/pipeline.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Several statements in one round trip (the unit of work's BEGIN + first
 * statement, and its deferred writes + COMMIT), on PostgreSQL: each step's rows,
 * one answer per pipeline, the rest skipped after an error, and a named statement
 * parsed once per connection, even after a pipeline that failed.
 */
describe('Pipeline', () => {
  let t: TestApp;
  let client: pg.PoolClient;
  /** How many times PostgreSQL said it is ready for the next query: one per round trip. */
  let readyAnswers = 0;

  beforeAll(async () => {
    t = await createTestApp();
    client = await (t.db.driver as unknown as { master: pg.Pool }).master.connect();
    (client as unknown as { connection: pg.Connection }).connection.on('readyForQuery', () => (readyAnswers += 1));
  });
  afterAll(async () => {
    client.release();
    await t.close();
  });
  beforeEach(() => t.reset());

  const INSERT = { name: 'test_pipeline_insert', text: 'INSERT INTO categories (name) VALUES ($1) RETURNING id, name' };
  const TYPED = {
    name: 'test_pipeline_typed',
    text: 'SELECT $1::int8 AS big, $2::int4 AS small, $3::timestamptz AS at, $4::jsonb AS doc, $5::text AS nothing',
  };
  const categories = async (): Promise<string[]> =>
    (await client.query<{ name: string }>('SELECT name FROM categories ORDER BY id')).rows.map((r) => r.name);
  const prepared = async (name: string): Promise<number> =>
    (await client.query('SELECT 1 FROM pg_prepared_statements WHERE name = $1', [name])).rowCount ?? 0;

  it("runs every step in one round trip and gives each step's rows, read as pg reads them", async () => {
    const at = new Date('2026-12-01T09:00:00.000Z');
    const before = readyAnswers;
    const rows = await Pipeline.run(client, [
      'BEGIN',
      { statement: INSERT, values: ["it's'); DROP TABLE categories; --"] },
      { statement: TYPED, values: [9007199254740993n, 7, at, JSON.stringify({ a: [1, 'b'] }), null] },
      'COMMIT',
    ]);
    expect(readyAnswers - before).toBe(1);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toEqual([]);
    expect(rows[1]).toEqual([{ id: expect.any(String) as string, name: "it's'); DROP TABLE categories; --" }]);
    expect(rows[2]).toEqual([{ big: '9007199254740993', small: 7, at, doc: { a: [1, 'b'] }, nothing: null }]);
    expect(rows[3]).toEqual([]);
    expect(await categories()).toEqual(["it's'); DROP TABLE categories; --"]);
  });

  it('stops at the first error: nothing after it runs, and the connection serves the next round trip', async () => {
    const failing = Pipeline.run(client, [
      'BEGIN',
      { statement: INSERT, values: ['before'] },
      { statement: INSERT, values: [null] }, // NOT NULL violation
      { statement: INSERT, values: ['after'] },
      'COMMIT',
    ]);
    await expect(failing).rejects.toThrow(/null value/);
    // The transaction is aborted, not committed: its owner rolls it back.
    expect((await client.query('SELECT 1 AS one').catch((error: Error) => error)) as Error).toBeInstanceOf(Error);
    await client.query('ROLLBACK');
    expect(await categories()).toEqual([]);

    await Pipeline.run(client, ['BEGIN', { statement: INSERT, values: ['next'] }, 'COMMIT']);
    expect(await categories()).toEqual(['next']);
  });

  it('parses a named statement once per connection, and again after a pipeline that failed once it was parsed', async () => {
    const BAD_THEN_GOOD = { name: 'test_pipeline_cast', text: 'SELECT $1::int8 + 1 AS next' };
    // Parsed, then refused at Bind (not a bigint): PostgreSQL keeps the statement, the pipeline cannot know it.
    await expect(Pipeline.run(client, [{ statement: BAD_THEN_GOOD, values: ['x'] }])).rejects.toThrow(/bigint/);
    expect(await prepared(BAD_THEN_GOOD.name)).toBe(1);
    expect(await Pipeline.run(client, [{ statement: BAD_THEN_GOOD, values: [1] }])).toEqual([[{ next: '2' }]]);
    expect(await Pipeline.run(client, [{ statement: BAD_THEN_GOOD, values: [2] }])).toEqual([[{ next: '3' }]]);
    expect(await prepared(BAD_THEN_GOOD.name)).toBe(1);
  });

  it('fails a COPY step, which it has no data for, and the connection serves the next round trip', async () => {
    await expect(Pipeline.run(client, ['COPY categories (name) FROM STDIN'])).rejects.toThrow(/COPY data/);
    expect(await Pipeline.run(client, [{ statement: INSERT, values: ['after'] }])).toEqual([
      [{ id: expect.any(String) as string, name: 'after' }],
    ]);
  });

  it('refuses a value it cannot send before writing anything', async () => {
    const before = readyAnswers;
    await expect(Pipeline.run(client, [{ statement: INSERT, values: [{ not: 'text' }] }])).rejects.toThrow(TypeError);
    expect(readyAnswers).toBe(before);
    expect(await categories()).toEqual([]);
  });
});
