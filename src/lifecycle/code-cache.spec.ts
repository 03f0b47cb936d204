import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE_WRITE_DELAY_MS, runBundle, writeCodeCache } from './code-cache.js';
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

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

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

  const started = async () => {
    processEvents.emit(STARTED_EVENT);
    await sleep(CACHE_WRITE_DELAY_MS + 100);
  };

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
    expect(existsSync(first.cacheFile)).toBe(false); // not before the start is done
    await started();
    expect(existsSync(first.cacheFile)).toBe(true);
    const written = statSync(first.cacheFile).mtimeMs;

    const second = runBundle(file, (specifier) => import(specifier));
    expect(second.cache).toBe('used');
    expect((second.exports as Record<string, unknown>).work).toBe(2450);
    await started();
    expect(statSync(second.cacheFile).mtimeMs).toBe(written);
  });

  it('compiles afresh when the cache belongs to another build (even of the same length), and replaces it', async () => {
    runBundle(file, (specifier) => import(specifier));
    await started();
    writeFileSync(file, BUNDLE.replace('i * 2', 'i * 3'));
    const changed = runBundle(file, (specifier) => import(specifier));
    expect(changed.cache).toBe('rejected');
    expect((changed.exports as Record<string, unknown>).work).toBe(3675);
    await started();
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
