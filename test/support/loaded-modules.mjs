// Preloaded into a service process (NODE_OPTIONS=--import) by test/tracing.e2e-spec.ts: when
// the process exits, writes the files Node's CommonJS loader loaded (`require.cache`, where
// the bundles and every package they require are) to LOADED_MODULES_FILE, as JSON.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { cache } = createRequire(import.meta.url);

process.on('exit', () => {
  writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(Object.keys(cache)));
});
