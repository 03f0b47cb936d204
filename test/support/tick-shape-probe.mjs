// Run by test/tick-shape.e2e-spec.ts as `node --allow-natives-syntax --expose-gc
// tick-shape-probe.mjs keep|none`, in a process of its own (Jest runs tests in a
// context of theirs, whose objects never share Node's hidden classes): does
// process.nextTick's literal keep one hidden class per key through a full
// collection made as the service's start-up makes one? Prints one JSON line.
/* global gc */
import { createHook } from 'node:async_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setImmediate as nextTurn } from 'node:timers/promises';

const keep = process.argv[2] === 'keep';
const shape = await import(pathToFileURL(resolve('dist/src/lifecycle/tick-shape.js')).href);
if (keep) shape.keepTickShape();

const noop = () => undefined;
async function ticks(rounds) {
  for (let round = 0; round < rounds; round += 1) {
    for (let tick = 0; tick < 10; tick += 1) process.nextTick(noop);
    await nextTurn();
  }
}

/** The entry the next `process.nextTick` queues, as async hooks see it made. */
function nextTickEntry() {
  let entry;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject') entry ??= resource;
    },
  }).enable();
  process.nextTick(noop);
  hook.disable();
  return entry;
}

const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
const debugPrint = new Function('value', '%DebugPrint(value)');

// As at start-up: nextTick has met a few entries (its caches are set, its code not yet
// optimized), then a full collection runs while no entry is pending.
await ticks(5);
gc();
await ticks(10);
const kept = shape.keptTickShape();
const sameMap = kept === undefined ? null : haveSameMap(kept, nextTickEntry());
// V8's view of nextTick's caches (feedback slots), written to stdout before the result line.
debugPrint(process.nextTick);
process.stdout.write(`\nRESULT ${JSON.stringify({ sameMap })}\n`);
