import { createHook } from 'node:async_hooks';

/** Held for the life of the process: its only purpose is to exist. */
let kept: object | undefined;

/**
 * Keeps one entry of `process.nextTick`'s queue alive for good, so that the hidden
 * classes of those entries are never collected.
 *
 * Node makes each entry with an object literal whose first keys are computed
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`, and
 * since Node 24 an async context frame too), and V8 records the hidden class each
 * computed key meets in a cache that only goes from one class to "any class"
 * (megamorphic), never to a few. A full garbage collection that finds no entry
 * pending, before `nextTick` has been optimized (the service's start-up compaction,
 * see `compact-heap.ts`), collects those classes; the next entry gets new ones, that
 * cache goes megamorphic for the rest of the process, and every `nextTick` defines
 * its keys through V8's runtime: ~0.3 µs each, a dozen per request.
 *
 * A real entry, taken as it is made (async hooks are told of each one; the hook is
 * on for that one call only), holds its hidden class and, through it, the classes it
 * went through. Call it first thing, before any full collection.
 */
export function keepTickShape(): void {
  if (kept !== undefined) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource as object;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
}

/** The entry `keepTickShape` keeps (for tests), if any. */
export function keptTickShape(): object | undefined {
  return kept;
}
