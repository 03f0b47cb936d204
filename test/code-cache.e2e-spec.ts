import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eventually } from './support/eventually.js';
import { startUntilReady } from './support/spawn-service.mjs';

/**
 * `npm start` runs dist/petstore.mjs, which runs the bundle dist/petstore.cjs with
 * V8's code cache (src/lifecycle/code-cache.ts): the first start after a build
 * writes dist/petstore.cjs.cache once it listens, the next starts read it. A copy of
 * the two files in a directory of their own (under dist/, so that packages resolve
 * as from dist/) keeps this test's cache apart from the other tests' starts.
 */
const DIST = resolve('dist');

/** Starts the copy, waits until `whileUp` is done, and stops it (SIGTERM: exit 0). */
async function startOnce(dir: string, whileUp: () => Promise<unknown>): Promise<void> {
  const service = await startUntilReady({
    entry: join(dir, 'petstore.mjs'),
    env: {
      NODE_OPTIONS: undefined, // not Jest's --experimental-vm-modules
      BOOTSTRAP_ADMIN_KEY: `psk_cache_${randomBytes(16).toString('hex')}`,
      LOG_LEVEL: 'warn',
    },
  });
  try {
    await whileUp();
  } finally {
    service.child.kill('SIGTERM');
  }
  expect(await service.exited).toEqual({ code: 0, signal: null });
}

describe('the code cache of the bundle (e2e)', () => {
  let dir: string;

  beforeAll(() => {
    if (!existsSync(join(DIST, 'petstore.cjs'))) throw new Error('dist/petstore.cjs is missing: run `npm run build`');
    dir = mkdtempSync(join(DIST, 'code-cache-test-'));
    for (const file of ['petstore.mjs', 'petstore.cjs']) copyFileSync(join(DIST, file), join(dir, file));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is written by the first start and read, not rewritten, by the next', async () => {
    const cacheFile = join(dir, 'petstore.cjs.cache');
    expect(existsSync(cacheFile)).toBe(false);
    await startOnce(dir, () => eventually(() => existsSync(cacheFile))); // written aside, then renamed: complete
    const written = statSync(cacheFile);
    expect(written.size).toBeGreaterThan(1_000_000); // the bytecode of the start, not only the top level

    // A start that could not use the cache would rewrite it 100 ms after listening; this one is given 600 ms.
    await startOnce(dir, () => new Promise((done) => setTimeout(done, 600)));
    expect(statSync(cacheFile).mtimeMs).toBe(written.mtimeMs);
  });
});
