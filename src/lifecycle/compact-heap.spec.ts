import { collectGarbage } from './compact-heap.js';

const nextTurn = () => new Promise((done) => setTimeout(done, 0));

describe('collectGarbage', () => {
  it('collects what nothing references any more, and the process goes on', async () => {
    const ref = new WeakRef(Array.from({ length: 100_000 }, (_, n) => ({ n })));
    await nextTurn(); // a WeakRef keeps its target until the turn that made it has ended
    await collectGarbage();
    expect(ref.deref()).toBeUndefined();
    // Timers still run once the session is gone (disconnecting within the answer's callback never returned).
    await nextTurn();
  });

  it('can run again', async () => {
    await collectGarbage();
    await collectGarbage();
  });
});
