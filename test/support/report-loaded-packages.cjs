// Loaded with `node --require` into the built service: when the process exits, writes
// one line to stderr naming every CommonJS file it loaded from node_modules (what a
// bundle should have carried itself). Used by test/bundle.e2e-spec.ts.
/* global process, require */
'use strict';

process.on('exit', () => {
  const files = Object.keys(require.cache).filter((file) => file.includes('/node_modules/'));
  process.stderr.write(`LOADED_FROM_NODE_MODULES ${JSON.stringify(files)}\n`);
});
