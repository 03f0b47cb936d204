// `npm run openapi:check`: fails when the committed openapi.yaml is not the document
// the code generates (it runs on the build; the npm script builds first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const COMMITTED = 'openapi.yaml';

function check(fresh) {
  const generate = spawnSync(process.execPath, ['dist/src/cli/openapi.js', fresh], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (generate.status !== 0) {
    console.error('openapi:check: could not generate the OpenAPI document (run `npm run build` first)');
    return 2;
  }
  if (!existsSync(COMMITTED)) {
    console.error(`openapi:check: ${COMMITTED} is missing; run \`npm run openapi\` and commit it`);
    return 1;
  }
  if (readFileSync(COMMITTED, 'utf8') === readFileSync(fresh, 'utf8')) {
    console.log(`openapi:check: ${COMMITTED} is up to date`);
    return 0;
  }
  spawnSync('git', ['--no-pager', 'diff', '--no-index', '--', COMMITTED, fresh], { stdio: 'inherit' });
  console.error(
    `\nopenapi:check: ${COMMITTED} is out of date: it differs from the document the code generates ` +
      '(diff above: committed, then generated).\nRun `npm run openapi` and commit the updated openapi.yaml.',
  );
  return 1;
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-openapi-'));
let status;
try {
  status = check(join(dir, 'openapi.yaml'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
