// Preloaded into a service process (NODE_OPTIONS=--require) by test/tracing.e2e-spec.ts: when
// the process exits, writes the files Node's CommonJS loader loaded (`require.cache`, where
// the bundles and every package they require are) to LOADED_MODULES_FILE, as JSON.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(Object.keys(require.cache)));
});
