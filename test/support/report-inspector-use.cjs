// Loaded with `node --require` into the built service: writes one line to stderr,
// a second after the first request (after the start-up heap compaction), with
// every use of the inspector the process made: sessions connected and the methods
// posted to them. The inspector's HeapProfiler.collectGarbage, once used for that
// compaction, left V8's heap profiler at work for good: every process.nextTick
// (~10 per request, Node's streams) cost ~8 times as much afterwards. Used by
// test/bundle.e2e-spec.ts.
/* global process, setTimeout */
'use strict';

const http = process.getBuiltinModule('node:http');
const { Session } = process.getBuiltinModule('node:inspector');

const uses = [];
for (const method of ['connect', 'connectToMainThread', 'post']) {
  const original = Session.prototype[method];
  Session.prototype[method] = function (...args) {
    uses.push(method === 'post' ? `post ${args[0]}` : method);
    return original.apply(this, args);
  };
}

const emit = http.Server.prototype.emit;
let scheduled = false;
http.Server.prototype.emit = function (type) {
  if (type === 'request' && !scheduled) {
    scheduled = true;
    setTimeout(() => process.stderr.write(`INSPECTOR_USE ${JSON.stringify(uses)}\n`), 1_000).unref();
  }
  return emit.apply(this, arguments);
};
