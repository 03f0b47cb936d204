import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runBundle, writeCodeCache } from './code-cache.js';
import { processEvents, STARTED_EVENT } from './started-event.js';

/** A bundle that reports what its wrapper gave it. */
const BUNDLE = `"use strict";
module.exports = {
  strict: (function () { return this; })() === undefined,
  filename: __filename,
  dirname: __dirname,
  url: __bundleUrl,
  join: require('node:path').join('a', 'b'),
  imported: __import('node:os').then((os) => typeof os.cpus),
  work: Array.from({ length: 50 }, (_, i) => i * 2).reduce((a, b) => a + b, 0),
};
`;

/** Resolves once `check` holds, asking every 10 ms (no deadline of its own: Jest's timeout is the bound). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((done) => setTimeout(done, 10));
}

describe('runBundle (the launcher: the bundle with V8 code cache)', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-code-cache-'));
    file = join(dir, 'bundle.cjs');
    writeFileSync(file, BUNDLE);
  });
  afterEach(() => {
    processEvents.removeAllListeners(STARTED_EVENT);
    rmSync(dir, { recursive: true, force: true });
  });

  const started = () => processEvents.emit(STARTED_EVENT);
  /** Whether the cache file is there and records `sourceHash` (the source it was made from). */
  const cachedFor = (run: { cacheFile: string; sourceHash: Buffer }) =>
    existsSync(run.cacheFile) && readFileSync(run.cacheFile).subarray(0, 32).equals(run.sourceHash);

  it('runs the bundle as strict CommonJS with its file, URL, require and import()', async () => {
    const run = runBundle(file, (specifier) => import(specifier));
    const exported = run.exports as Record<string, unknown>;
    expect(exported).toMatchObject({
      strict: true,
      filename: file,
      dirname: dir,
      url: pathToFileURL(file).href,
      join: join('a', 'b'),
      work: 2450,
    });
    await expect(exported.imported).resolves.toBe('function');
  });

  it('writes the cache once the service has started, and the next run uses it without writing again', async () => {
    const first = runBundle(file, (specifier) => import(specifier));
    expect(first.cache).toBe('absent');
    expect(processEvents.listenerCount(STARTED_EVENT)).toBe(1); // the writer waits for the start
    expect(existsSync(first.cacheFile)).toBe(false);
    started();
    await until(() => cachedFor(first));

    const second = runBundle(file, (specifier) => import(specifier));
    expect(second.cache).toBe('used');
    expect((second.exports as Record<string, unknown>).work).toBe(2450);
    expect(processEvents.listenerCount(STARTED_EVENT)).toBe(0); // nothing will write it again
  });

  it('compiles afresh when the cache belongs to another build (even of the same length), and replaces it', async () => {
    const first = runBundle(file, (specifier) => import(specifier));
    started();
    await until(() => cachedFor(first));
    writeFileSync(file, BUNDLE.replace('i * 2', 'i * 3'));
    const changed = runBundle(file, (specifier) => import(specifier));
    expect(changed.cache).toBe('rejected');
    expect((changed.exports as Record<string, unknown>).work).toBe(3675);
    started();
    await until(() => cachedFor(changed));
    expect(runBundle(file, (specifier) => import(specifier)).cache).toBe('used');
  });

  it('treats a damaged cache file as no cache', () => {
    writeFileSync(`${file}.cache`, 'not a code cache');
    const run = runBundle(file, (specifier) => import(specifier));
    expect(run.cache).toBe('rejected');
    expect((run.exports as Record<string, unknown>).work).toBe(2450);
  });

  it('reports a cache it cannot write, leaving nothing behind', () => {
    const run = runBundle(file, (specifier) => import(specifier));
    expect(writeCodeCache(run.script, run.sourceHash, join(dir, 'missing', 'bundle.cjs.cache'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['bundle.cjs']);
  });
});
