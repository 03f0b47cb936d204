import { ballast, oldGenerationGrowth } from '../../test/support/old-generation.js';
import { removeUnordered } from './remove-unordered.js';

const ITEMS = 2_000;
const ITEM_BYTES = 8 * 1024;
const IN_FLIGHT = 5;

/** ITEMS short-lived objects through `track`/`untrack`, at most IN_FLIGHT tracked at once. */
function churn(track: (item: object) => void, untrack: (item: object) => void): void {
  const inFlight: object[] = [];
  for (let i = 0; i < ITEMS; i += 1) {
    const item = ballast(ITEM_BYTES);
    track(item);
    inFlight.push(item);
    if (inFlight.length > IN_FLIGHT) untrack(inFlight.shift() as object);
  }
  for (const item of inFlight.splice(0)) untrack(item);
}

describe('removeUnordered', () => {
  it('removes the item, moving the last one into its place', () => {
    const list = ['a', 'b', 'c', 'd'];
    removeUnordered(list, 'b');
    expect(list).toEqual(['a', 'd', 'c']);
    removeUnordered(list, 'c');
    expect(list).toEqual(['a', 'd']);
    removeUnordered(list, 'x');
    expect(list).toEqual(['a', 'd']);
    removeUnordered(list, 'a');
    removeUnordered(list, 'd');
    expect(list).toEqual([]);
  });

  // Why it exists, and a check that the measure used by the trackers' tests sees the difference.
  it('leaves nothing for the old generation, where a long-lived Set keeps what it held', () => {
    const total = ITEMS * ITEM_BYTES;
    const list: object[] = [];
    const throughArray = oldGenerationGrowth(() =>
      churn(
        (item) => list.push(item),
        (item) => removeUnordered(list, item),
      ),
    );
    const set = new Set<object>();
    const throughSet = oldGenerationGrowth(() =>
      churn(
        (item) => set.add(item),
        (item) => set.delete(item),
      ),
    );
    expect(set.size + list.length).toBe(0);
    expect(throughSet).toBeGreaterThan(total / 4);
    expect(throughArray).toBeLessThan(total / 20);
  });
});
