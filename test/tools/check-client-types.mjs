// `npm run client:types:check`: fails when the committed types of @petstore/client
// (libs/client/src/schema.ts) are not what openapi-typescript makes of openapi.yaml.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const COMMITTED = 'libs/client/src/schema.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-client-types-'));
let status = 0;
try {
  const fresh = join(dir, 'schema.ts');
  const generate = spawnSync('npx', ['--no-install', 'openapi-typescript', 'openapi.yaml', '-o', fresh], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (generate.status !== 0) {
    console.error('client:types:check: openapi-typescript failed on openapi.yaml');
    status = 2;
  } else if (readFileSync(COMMITTED, 'utf8') === readFileSync(fresh, 'utf8')) {
    console.log(`client:types:check: ${COMMITTED} is up to date`);
  } else {
    spawnSync('git', ['--no-pager', 'diff', '--no-index', '--stat', '--', COMMITTED, fresh], { stdio: 'inherit' });
    console.error(
      `\nclient:types:check: ${COMMITTED} is out of date: openapi-typescript makes something else of openapi.yaml.` +
        '\nRun `npm run client:types` and commit the result.',
    );
    status = 1;
  }
} catch (error) {
  console.error(`client:types:check: ${error.message}`);
  status = 2;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
