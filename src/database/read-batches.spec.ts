import type { Statement } from './prepared-sql.js';
import { type KeyedLookup, ReadBatches, type Row } from './read-batches.js';

const BY_NAME: Statement = { name: 'by_name', text: 'SELECT * FROM t WHERE name = $1' };
const LOOKUP: KeyedLookup = {
  one: { name: 'by_id', text: 'SELECT * FROM t WHERE id = $1' },
  many: { name: 'by_ids', text: 'SELECT * FROM t WHERE id = ANY($1::bigint[])' },
  key: 'id',
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
      if (statement === LOOKUP.one) return TABLE.filter((row) => row.id === values[0]);
      const ids = values[0] as string[];
      return TABLE.filter((row) => ids.includes(row.id as string));
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

  it('sends reads with other values, or of another statement, as queries of their own', async () => {
    const { batches, sent, endTurn } = setUp();
    const a = batches.rows(BY_NAME, ['a']);
    const b = batches.rows(BY_NAME, ['b']);
    const one = batches.rows(LOOKUP.one, ['2']);
    endTurn();
    expect(await a).toEqual([TABLE[0], TABLE[2]]);
    expect(await b).toEqual([TABLE[1]]);
    expect(await one).toEqual([TABLE[1]]);
    expect(sent.map((query) => query.statement)).toEqual(['by_name', 'by_name', 'by_id']);
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

  it('asks one lookup alone with its own statement, and a turn of lookups with one query for all keys', async () => {
    const { batches, sent, endTurn } = setUp();
    const alone = batches.lookup(LOOKUP, '2');
    endTurn();
    expect(await alone).toEqual(TABLE[1]);
    const found = [batches.lookup(LOOKUP, '3'), batches.lookup(LOOKUP, '1'), batches.lookup(LOOKUP, '3')];
    const missing = batches.lookup(LOOKUP, '9');
    endTurn();
    expect(await Promise.all(found)).toEqual([TABLE[2], TABLE[0], TABLE[2]]);
    expect(await missing).toBeUndefined();
    expect(sent).toEqual([
      { statement: 'by_id', values: ['2'] },
      { statement: 'by_ids', values: [['3', '1', '9']] },
    ]);
  });

  it('fails exactly the reads a failed query carried', async () => {
    const broken = new Error('connection lost');
    const { batches, endTurn } = setUp((statement) => (statement === LOOKUP.many ? broken : undefined));
    const lookups = [batches.lookup(LOOKUP, '1'), batches.lookup(LOOKUP, '2')];
    const read = batches.rows(BY_NAME, ['b']);
    endTurn();
    await expect(lookups[0]).rejects.toBe(broken);
    await expect(lookups[1]).rejects.toBe(broken);
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
