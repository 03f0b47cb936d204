// Jest loads global setup outside its TypeScript/ESM pipeline, so this file is plain
// JavaScript and uses the compiled database launcher. `npm test` builds first (`pretest`);
// a single suite run with `npx jest test/<file>` on a fresh clone builds here, once.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URL } from 'node:url';

const ROOT = new URL('../../', import.meta.url);
/** What the setup and the suites that start the real service (`node dist/petstore.cjs`) need of the build. */
const BUILT = ['dist/src/database/database-url.js', 'dist/petstore.cjs'];

/**
 * E2E tests run on a real PostgreSQL: `DATABASE_URL` when set (CI: the machine's
 * server), otherwise a throw-away embedded one in a temporary directory.
 */
export default async function globalSetup() {
  if (!BUILT.every((file) => existsSync(new URL(file, ROOT)))) {
    console.log('\nNo build in dist/: running `npm run build` once (npm test builds before every run).');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  }
  if (process.env.DATABASE_URL) return;
  const { resolveDatabaseUrl } = await import(new URL('dist/src/database/database-url.js', ROOT).href);
  const dir = mkdtempSync(join(tmpdir(), 'petstore-test-'));
  const db = await resolveDatabaseUrl({ ...process.env, DATA_DIR: dir }, () => undefined);
  globalThis.embeddedTestDatabase = { db, dir };
  process.env.DATABASE_URL = db.url;
}
