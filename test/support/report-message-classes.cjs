// Loaded with `node --require` into the built service: at the
// first request, writes one line to stderr saying whether the classes the server
// built that request and its response with keep fast properties (V8's test syntax:
// a class turned into a dictionary makes V8's optimizing compiler give up on every
// function constructing it). Used by test/bundle-rewrite.e2e-spec.ts.
/* global process */
'use strict';

const http = process.getBuiltinModule('node:http');
const { setFlagsFromString } = process.getBuiltinModule('node:v8');

// V8's test syntax, for code compiled from here on (hence `new Function`).
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)');

const emit = http.Server.prototype.emit;
let reported = false;
http.Server.prototype.emit = function (type, req, res) {
  if (type === 'request' && !reported) {
    reported = true;
    const shapes = {
      request: { name: req.constructor.name, fast: hasFastProperties(req.constructor) },
      response: { name: res.constructor.name, fast: hasFastProperties(res.constructor) },
    };
    process.stderr.write(`MESSAGE_CLASSES ${JSON.stringify(shapes)}\n`);
  }
  return emit.apply(this, arguments);
};
