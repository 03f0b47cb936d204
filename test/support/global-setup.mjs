// Jest loads global setup outside its TypeScript/ESM pipeline, so this file is plain
// JavaScript and uses the compiled database launcher (`npm test` builds first: see `pretest`).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveDatabaseUrl } from '../../dist/src/database/database-url.js';

/**
 * E2E tests run on a real PostgreSQL: `DATABASE_URL` when set (CI: the machine's
 * server), otherwise a throw-away embedded one in a temporary directory.
 */
export default async function globalSetup() {
  if (process.env.DATABASE_URL) return;
  const dir = mkdtempSync(join(tmpdir(), 'petstore-test-'));
  const db = await resolveDatabaseUrl({ ...process.env, DATA_DIR: dir }, () => undefined);
  globalThis.embeddedTestDatabase = { db, dir };
  process.env.DATABASE_URL = db.url;
}
