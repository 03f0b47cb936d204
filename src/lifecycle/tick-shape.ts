import { AsyncResource } from 'node:async_hooks';

/** Held for the life of the process: its only purpose is to exist. */
let kept: object | undefined;

/**
 * Keeps one object shaped like the entries of `process.nextTick`'s queue alive for
 * good, so that the hidden classes of those entries are never collected.
 *
 * Node makes each entry with an object literal whose first keys are computed
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`), and V8
 * records the hidden class each computed key meets in a cache that only goes from
 * one class to "any class" (megamorphic), never to a few. A full garbage collection
 * that finds no entry pending, before `nextTick` has been optimized (the service's
 * start-up compaction, see `compact-heap.ts`), collects those classes; the next entry
 * gets new ones, that cache goes megamorphic for the rest of the process, and every
 * `nextTick` defines its keys through V8's runtime: ~0.3 µs each, a dozen per request.
 *
 * An object built the same way (the same symbols, read off an `AsyncResource`, which
 * Node keys with them; the same keys in the same order) shares those classes and
 * keeps them reachable. Call it first thing, before any full collection.
 */
export function keepTickShape(): void {
  if (kept !== undefined) return;
  const resource = new AsyncResource('TickShape');
  const [asyncId, triggerAsyncId] = Object.getOwnPropertySymbols(resource);
  if (asyncId === undefined || triggerAsyncId === undefined) return; // a Node without them: nothing to keep
  const callback = (): void => undefined;
  const args: unknown[] | undefined = undefined;
  kept = { [asyncId]: resource.asyncId(), [triggerAsyncId]: resource.triggerAsyncId(), callback, args };
}

/** The object `keepTickShape` keeps (for tests), if any. */
export function keptTickShape(): object | undefined {
  return kept;
}
