import { runInNewContext } from 'node:vm';
import { collectGarbage } from './compact-heap.js';

const nextTurn = () => new Promise((done) => setTimeout(done, 0));

describe('collectGarbage', () => {
  it('collects what nothing references any more, and the process goes on', async () => {
    const ref = new WeakRef(Array.from({ length: 100_000 }, (_, n) => ({ n })));
    await nextTurn(); // a WeakRef keeps its target until the turn that made it has ended
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    await nextTurn();
  });

  it('can run again', () => {
    collectGarbage();
    collectGarbage();
  });

  it('leaves no gc function to contexts made afterwards', () => {
    collectGarbage();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
