import { getHeapSpaceStatistics } from 'node:v8';
import { v8Gc } from '../../src/lifecycle/compact-heap.js';

const gc = v8Gc();

function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;
}

/**
 * How many bytes the old generation grew by while `work` ran and two scavenges
 * followed: what `work` left behind that outlived the young generation. Full
 * collections first, so that long-lived structures made before are old (as a
 * server's are) and the figure starts from a clean heap; none after, since one
 * would free dead objects that scavenges still treat as alive.
 */
export function oldGenerationGrowth(work: () => void): number {
  gc({ type: 'major' });
  gc({ type: 'major' });
  const before = oldSpaceUsed();
  work();
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  return oldSpaceUsed() - before;
}

/** A short-lived object of about `bytes` (a response with what it references, say). */
export function ballast(bytes: number): { readonly payload: number[] } {
  return { payload: new Array<number>(Math.ceil(bytes / 8)).fill(1.5) };
}
