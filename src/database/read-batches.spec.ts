import type { Statement } from './prepared-sql.js';
import { MAX_MERGED, type MergeableRead, READ_ORDINAL, ReadBatches, type Row } from './read-batches.js';

const BY_NAME: Statement = { name: 'by_name', text: 'SELECT * FROM t WHERE name = $1' };
const BY_ID: MergeableRead = {
  one: { name: 'by_id', text: 'SELECT * FROM t WHERE id = $1' },
  many: { name: 'by_ids', text: 'SELECT … FROM unnest($1::bigint[]) WITH ORDINALITY …' },
};
const TABLE: Row[] = [
  { id: '1', name: 'a' },
  { id: '2', name: 'b' },
  { id: '3', name: 'a' },
];

/** A fake database over TABLE that records each query, and a turn that ends when the test says so. */
function setUp(fail?: (statement: Statement) => Error | undefined) {
  const sent: Array<{ statement: string; values: readonly unknown[] }> = [];
  let pending: (() => void) | undefined;
  const batches = new ReadBatches(
    async (statement, values) => {
      sent.push({ statement: statement.name, values });
      const error = fail?.(statement);
      if (error) throw error;
      if (statement === BY_NAME) return TABLE.filter((row) => row.name === values[0]);
      if (statement === BY_ID.one) return TABLE.filter((row) => row.id === String(values[0]));
      // As `unnest … WITH ORDINALITY` joined to the table: each row with the ordinal of the id it answers.
      const ids = values[0] as number[];
      return ids.flatMap((id, i) =>
        TABLE.filter((row) => row.id === String(id)).map((row) => ({ [READ_ORDINAL]: String(i + 1), ...row })),
      );
    },
    (flush) => {
      if (pending) throw new Error('scheduled twice in one turn');
      pending = flush;
    },
  );
  const endTurn = () => {
    const flush = pending;
    pending = undefined;
    flush?.();
  };
  return { batches, sent, endTurn };
}

const ids = (rows: readonly Row[]) => rows.map((row) => row.id);

describe('ReadBatches', () => {
  it('sends nothing before the turn ends, then one query for identical reads, shared', async () => {
    const { batches, sent, endTurn } = setUp();
    const first = batches.rows(BY_NAME, ['a']);
    const second = batches.rows(BY_NAME, ['a']);
    expect(sent).toEqual([]);
    endTurn();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual([TABLE[0], TABLE[2]]);
    expect(b).toBe(a);
    expect(sent).toEqual([{ statement: 'by_name', values: ['a'] }]);
  });

  it('sends reads of a statement with other values as queries of their own', async () => {
    const { batches, sent, endTurn } = setUp();
    const a = batches.rows(BY_NAME, ['a']);
    const b = batches.rows(BY_NAME, ['b']);
    endTurn();
    expect(await a).toEqual([TABLE[0], TABLE[2]]);
    expect(await b).toEqual([TABLE[1]]);
    expect(sent).toEqual([
      { statement: 'by_name', values: ['a'] },
      { statement: 'by_name', values: ['b'] },
    ]);
  });

  it('shares only values JSON tells apart: a date, a bigint or NaN is read on its own', async () => {
    const { batches, sent, endTurn } = setUp();
    const at = new Date('2026-11-26T00:00:00Z');
    const reads = [
      batches.rows(BY_NAME, [at]),
      batches.rows(BY_NAME, [at.toISOString()]),
      batches.rows(BY_NAME, [5n]),
      batches.rows(BY_NAME, ['5']),
      batches.rows(BY_NAME, [Number.NaN]),
      batches.rows(BY_NAME, [null]),
      batches.rows(BY_NAME, [[1, '1']]),
      batches.rows(BY_NAME, [[1, '1']]),
    ];
    endTurn();
    await Promise.all(reads);
    expect(sent.map((query) => query.values)).toEqual([
      [at],
      [at.toISOString()],
      [5n],
      ['5'],
      [Number.NaN],
      [null],
      [[1, '1']],
    ]);
  });

  it('never joins a query already sent: a read of the next turn asks again', async () => {
    const { batches, sent, endTurn } = setUp();
    const before = batches.rows(BY_NAME, ['a']);
    endTurn();
    const after = batches.rows(BY_NAME, ['a']);
    expect(sent).toHaveLength(1);
    endTurn();
    await Promise.all([before, after]);
    expect(sent).toHaveLength(2);
  });

  it('asks a mergeable read alone with its own statement, and a turn of them with one query, each its own rows', async () => {
    const { batches, sent, endTurn } = setUp();
    const alone = batches.rows(BY_ID, [2]);
    endTurn();
    expect(ids(await alone)).toEqual(['2']);
    const found = [batches.rows(BY_ID, [3]), batches.rows(BY_ID, [1]), batches.rows(BY_ID, [3])];
    const missing = batches.rows(BY_ID, [9]);
    endTurn();
    expect((await Promise.all(found)).map(ids)).toEqual([['3'], ['1'], ['3']]);
    expect(await missing).toEqual([]);
    expect(sent).toEqual([
      { statement: 'by_id', values: [2] },
      { statement: 'by_ids', values: [[3, 1, 9]] },
    ]);
  });

  it('merges reads of several values column by column', async () => {
    const sent: Array<readonly unknown[]> = [];
    let pending: (() => void) | undefined;
    const batches = new ReadBatches(
      async (_statement, values) => {
        sent.push(values);
        return [];
      },
      (flush) => (pending = flush),
    );
    const page: MergeableRead = { one: { name: 'page', text: '…' }, many: { name: 'pages', text: '…' } };
    const reads = [batches.rows(page, [0, 7, 21]), batches.rows(page, [40, 7, 21]), batches.rows(page, [0, 8, 3])];
    pending?.();
    await Promise.all(reads);
    expect(sent).toEqual([
      [
        [0, 40, 0],
        [7, 7, 8],
        [21, 21, 3],
      ],
    ]);
  });

  it('merges at most MAX_MERGED reads into one query, and sends a last one left over alone', async () => {
    const { batches, sent, endTurn } = setUp();
    const count = MAX_MERGED * 2 + 1;
    const reads = Array.from({ length: count }, (_, i) => batches.rows(BY_ID, [i + 1]));
    endTurn();
    const answers = await Promise.all(reads);
    expect(answers.slice(0, 3).map(ids)).toEqual([['1'], ['2'], ['3']]);
    expect(answers.slice(3).every((rows) => rows.length === 0)).toBe(true);
    const sizes = sent.map((query) => [query.statement, Array.isArray(query.values[0]) ? query.values[0].length : 1]);
    expect(sizes).toEqual([
      ['by_ids', MAX_MERGED],
      ['by_ids', MAX_MERGED],
      ['by_id', 1],
    ]);
    expect(sent[2].values).toEqual([count]);
  });

  it('fails exactly the reads a failed query carried', async () => {
    const broken = new Error('connection lost');
    const { batches, endTurn } = setUp((statement) => (statement === BY_ID.many ? broken : undefined));
    const merged = [batches.rows(BY_ID, [1]), batches.rows(BY_ID, [2])];
    const read = batches.rows(BY_NAME, ['b']);
    endTurn();
    await expect(merged[0]).rejects.toBe(broken);
    await expect(merged[1]).rejects.toBe(broken);
    expect(await read).toEqual([TABLE[1]]);
  });

  it('turns a runner that throws at once into failed reads, and keeps serving the next turn', async () => {
    let calls = 0;
    let pending: (() => void) | undefined;
    const batches = new ReadBatches(
      (statement) => {
        calls += 1;
        if (calls === 1) throw new Error('no pool');
        return Promise.resolve(statement === BY_NAME ? [TABLE[1]] : []);
      },
      (flush) => (pending = flush),
    );
    const failed = batches.rows(BY_NAME, ['b']);
    pending?.();
    await expect(failed).rejects.toThrow('no pool');
    const next = batches.rows(BY_NAME, ['b']);
    pending?.();
    expect(await next).toEqual([TABLE[1]]);
  });

  it('waits for the end of the turn by default (setImmediate)', async () => {
    const sent: string[] = [];
    const batches = new ReadBatches(async (statement) => {
      sent.push(statement.name);
      return [];
    });
    const read = batches.rows(BY_NAME, ['a']);
    await Promise.resolve();
    expect(sent).toEqual([]);
    await read;
    expect(sent).toEqual(['by_name']);
  });
});
