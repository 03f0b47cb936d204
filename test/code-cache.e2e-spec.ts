import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, spawnService, waitUntilReady } from './support/spawn-service.mjs';

/**
 * `npm start` runs dist/petstore.mjs, which runs the bundle dist/petstore.cjs with
 * V8's code cache (src/lifecycle/code-cache.ts): the first start after a build
 * writes dist/petstore.cjs.cache once it listens, the next starts read it. A copy of
 * the two files in a directory of their own (under dist/, so that packages resolve
 * as from dist/) keeps this test's cache apart from the other tests' starts.
 */
const DIST = resolve('dist');

async function startOnce(dir: string): Promise<void> {
  const port = await freePort();
  const service = spawnService({
    name: 'the service',
    port,
    entry: join(dir, 'petstore.mjs'),
    env: {
      NODE_OPTIONS: undefined, // not Jest's --experimental-vm-modules
      BOOTSTRAP_ADMIN_KEY: `psk_cache_${randomBytes(16).toString('hex')}`,
      LOG_LEVEL: 'warn',
    },
  });
  try {
    await waitUntilReady(service, async () => (await fetch(`${service.base}/health/ready`)).status === 200, {
      attempts: 120,
      intervalMs: 100,
    });
    await new Promise((done) => setTimeout(done, 600)); // the cache is written 100 ms after listening
  } finally {
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
  }
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
    await startOnce(dir);
    expect(existsSync(cacheFile)).toBe(true);
    const written = statSync(cacheFile);
    expect(written.size).toBeGreaterThan(1_000_000); // the bytecode of the start, not only the top level

    await startOnce(dir);
    expect(statSync(cacheFile).mtimeMs).toBe(written.mtimeMs);
  });
});
