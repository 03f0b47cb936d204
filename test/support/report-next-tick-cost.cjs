// Loaded with `node --require` into the built service: writes one line to stderr
// with what a `process.nextTick` costs (ns, the best of several rounds of 20,000)
// before the service is loaded and once it has started, served a request and
// compacted its heap. Node's streams call it ~10 times per request; the
// inspector's heap collection the service once used made it ~8 times dearer for
// good. Used by test/bundle.e2e-spec.ts.
/* global process, setTimeout */
'use strict';

const http = process.getBuiltinModule('node:http');

function nextTickCost() {
  const noop = () => undefined;
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 15; round += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 20_000; i += 1) process.nextTick(noop);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 20_000);
  }
  return best;
}

const before = nextTickCost();
const emit = http.Server.prototype.emit;
let scheduled = false;
http.Server.prototype.emit = function (type) {
  if (type === 'request' && !scheduled) {
    scheduled = true;
    setTimeout(() => {
      process.stderr.write(`NEXT_TICK_COST ${JSON.stringify({ before, after: nextTickCost() })}\n`);
    }, 1_000).unref();
  }
  return emit.apply(this, arguments);
};
