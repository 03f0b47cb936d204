import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Long enough for the first requests (a readiness probe) to go first; short beside any idle period. */
export const COMPACT_DELAY_MS = 250;

/**
 * One full garbage collection, soon after the service has started. Module
 * evaluation, Nest's scan, migrations and the first connections leave the heap at
 * about twice its live size (~70 MB committed for ~30 MB live, the young generation
 * grown by start-up's garbage); V8's memory reducer gives it back only after the
 * process has been idle for a while, and a busy process may never be. Collected
 * once, the process starts serving at its live size (about 100 MB of RSS instead of
 * 125). A failure is ignored: the heap is then only larger.
 */
export function compactHeapSoon(delayMs = COMPACT_DELAY_MS): void {
  setTimeout(() => {
    try {
      collectGarbage();
    } catch {
      // The heap is only larger.
    }
  }, delayMs).unref();
}

/** V8's `gc` function (`{ type: 'minor' }` for a scavenge; a full collection by default). */
export type V8Gc = (options?: { type: 'minor' | 'major' }) => void;

/**
 * V8's own `gc`, made available to one new context only (the flag is read when a
 * context is created, and reset at once): no other code of the process sees it.
 */
export function v8Gc(): V8Gc {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as V8Gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * A full collection through V8's `gc` (`v8Gc`).
 * Not the inspector's `HeapProfiler.collectGarbage`, which did the same but left
 * V8's heap profiler at work for good: every `process.nextTick` cost ~8 times as much
 * afterwards (docs/performance.md), ~4 µs per request.
 */
export function collectGarbage(): void {
  v8Gc()();
}
