import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { bundleCodeCacheUse, runBundleWithCodeCache, writeBundleCodeCaches } from './bundle-code-cache.js';

/** A CommonJS file exporting `work`, a function the file's own top level never calls (V8 compiles it lazily). */
const BUNDLE = (tag: string) => `// ${tag}
const steps = [];
for (let i = 0; i < 64; i++) steps.push((x) => x * 31 + i);
exports.work = function work(n) {
  let total = 0;
  for (let i = 0; i < n; i++) {
    const step = steps[i % steps.length];
    total = (step(total) + (i % 7 === 0 ? Math.sqrt(i) : i / 3) + (total > 1e9 ? -total / 2 : 0)) | 0;
  }
  return [total, String(total).padStart(12, '0'), JSON.stringify({ total, n }), typeof work].join(':');
};
`;

describe('runBundleWithCodeCache', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'bundle-code-cache-spec-'))));
  afterEach(() => {
    writeBundleCodeCaches(); // nothing left for the worker's exit to write into a removed directory
    rmSync(dir, { recursive: true, force: true });
  });

  /** `source` written to `<dir>/<name>`, with its cache directory beside it. */
  const bundleFile = (source: string, name = 'bundle.cjs'): { file: string; cache: string } => {
    const file = join(dir, name);
    writeFileSync(file, source);
    return { file, cache: join(dir, `${name}-cache`) };
  };
  /**
   * The same file (same name and content) in another folder, as a next start would see it: V8
   * keeps what this process compiled by source and path, and would not even read a cache for
   * a path it has compiled already.
   */
  const nextStartOf = (file: string): string => {
    const folder = mkdtempSync(join(dir, 'next-start-'));
    const copy = join(folder, basename(file));
    copyFileSync(file, copy);
    return copy;
  };
  const cacheFiles = (cache: string): string[] => {
    try {
      return readdirSync(cache);
    } catch {
      return [];
    }
  };

  it('runs a CommonJS file as require would: its exports, `this`, a require from its folder, its own path', () => {
    writeFileSync(join(dir, 'beside.cjs'), 'module.exports = "found beside";\n');
    const { file, cache } = bundleFile(
      'exports.same = this === exports; exports.beside = require("./beside.cjs");' +
        'exports.file = __filename; exports.folder = __dirname; module.exports.viaModule = true;\n',
    );
    expect(runBundleWithCodeCache(file, cache)).toEqual({
      same: true,
      beside: 'found beside',
      file,
      folder: dir,
      viaModule: true,
    });
  });

  it('has no cache at a first start, writes one only when asked (after start-up), and a next start uses it', () => {
    const { file, cache } = bundleFile(BUNDLE('first'));
    runBundleWithCodeCache(file, cache);
    expect(bundleCodeCacheUse()).toBe('absent');
    expect(cacheFiles(cache)).toEqual([]);
    writeBundleCodeCaches();
    expect(cacheFiles(cache)).toHaveLength(1);

    const again = runBundleWithCodeCache(nextStartOf(file), cache) as { work: (n: number) => string };
    expect(bundleCodeCacheUse()).toBe('used');
    expect(again.work(10)).toMatch(/^-?\d+:/);
    writeBundleCodeCaches();
    expect(cacheFiles(cache)).toHaveLength(1); // a used cache is not written again
  });

  it('holds the functions the start called, which a cache taken at compile time would not', () => {
    const sizeAfter = (callWork: boolean): number => {
      const { file, cache } = bundleFile(BUNDLE(callWork ? 'work called' : 'not called!'), `${callWork}.cjs`);
      const loaded = runBundleWithCodeCache(file, cache) as { work: (n: number) => string };
      if (callWork) loaded.work(100);
      writeBundleCodeCaches();
      const [name] = cacheFiles(cache);
      return statSync(join(cache, name ?? '')).size;
    };
    expect(sizeAfter(true)).toBeGreaterThan(sizeAfter(false));
  });

  it('does not use a cache made for another build of the file, and writes one for this build', () => {
    const { file, cache } = bundleFile(BUNDLE('one build'));
    runBundleWithCodeCache(file, cache);
    writeBundleCodeCaches();

    writeFileSync(file, BUNDLE('the next build'));
    expect(runBundleWithCodeCache(file, cache)).toHaveProperty('work');
    expect(bundleCodeCacheUse()).toBe('stale');
    writeBundleCodeCaches();
    runBundleWithCodeCache(nextStartOf(file), cache);
    expect(bundleCodeCacheUse()).toBe('used');
  });

  it('runs the file when V8 refuses the cache (damaged, another V8), and replaces the cache', () => {
    const { file, cache } = bundleFile(BUNDLE('damaged'));
    runBundleWithCodeCache(file, cache);
    writeBundleCodeCaches();
    const [name] = cacheFiles(cache);
    const path = join(cache, name ?? '');
    const damaged = readFileSync(path);
    damaged.fill(7, 32); // the source's hash kept, V8's data garbage
    writeFileSync(path, damaged);

    const loaded = runBundleWithCodeCache(nextStartOf(file), cache) as { work: (n: number) => string };
    expect(bundleCodeCacheUse()).toBe('rejected');
    expect(loaded.work(5)).toMatch(/^-?\d+:/);
    writeBundleCodeCaches();
    runBundleWithCodeCache(nextStartOf(file), cache);
    expect(bundleCodeCacheUse()).toBe('used');
  });

  it('runs without a cache when there is no directory for one, and writes nothing', () => {
    const { file } = bundleFile(BUNDLE('off'));
    expect(runBundleWithCodeCache(file, undefined)).toHaveProperty('work');
    expect(bundleCodeCacheUse()).toBe('off');
    writeBundleCodeCaches();
    expect(readdirSync(dir)).toEqual(['bundle.cjs']);
  });

  it('never fails the start when the cache cannot be written', () => {
    const { file } = bundleFile(BUNDLE('unwritable'));
    mkdirSync(join(dir, 'blocked'));
    writeFileSync(join(dir, 'blocked', 'a-file'), '');
    expect(runBundleWithCodeCache(file, join(dir, 'blocked', 'a-file'))).toHaveProperty('work');
    expect(bundleCodeCacheUse()).toBe('absent');
    expect(() => writeBundleCodeCaches()).not.toThrow();
    expect(readdirSync(join(dir, 'blocked'))).toEqual(['a-file']);
  });
});
