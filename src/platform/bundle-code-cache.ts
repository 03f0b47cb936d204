import { isAscii } from 'node:buffer';
import { hash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * What a start did with a bundle's code cache: `used`; `absent` (none yet), `stale` (made
 * for another build of the file) or `rejected` (by V8: another V8 or other flags), each of
 * which compiles the file as usual and writes a new cache after start-up; `off` (no cache
 * directory: Node's compile cache is off).
 */
export type BundleCodeCacheUse = 'used' | 'absent' | 'stale' | 'rejected' | 'off';

/** Where the entry leaves what the service bundle's start did, and the caches still to write: they are two bundles. */
const USE = Symbol.for('petstore.bundleCodeCache.use');
const PENDING = Symbol.for('petstore.bundleCodeCache.pending');

/** Node's own CommonJS wrapper: the file sees the same five names as under `require`. */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
const WRAPPER_END = '\n})';
/** A cache file starts with the SHA-256 of the source it was made from (V8 checks only the length). */
const HASH_BYTES = 32;

type Shared = Record<symbol, unknown>;

/**
 * Runs the CommonJS file `file` as `require` would — the same wrapper arguments, a `require`
 * resolving from the file — but from a `vm.Script` given the V8 code cache an earlier start
 * of the same file took once it had started (`writeBundleCodeCaches`). That cache holds the
 * functions the start called, which V8 compiles lazily and Node's compile cache, written as
 * each file is compiled and before any of it runs, never holds: on the service bundle, 0.15 s
 * of a 0.8 s start (docs/performance.md, "Cold starts"). Never fails because of the cache: a
 * missing, stale, refused or unwritable one only means compiling as usual.
 */
export function runBundleWithCodeCache(file: string, cacheDirectory: string | undefined): unknown {
  const bytes = readFileSync(file);
  // A one-byte (ASCII) source is what V8 keeps and hashes cheapest; the bundles are ASCII.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const sourceHash = hash('sha256', bytes, 'buffer');
  const cacheFile =
    cacheDirectory && join(cacheDirectory, `${basename(file)}.${process.version}-${process.arch}.cache`);
  const cached = cacheFile ? readIfPresent(cacheFile) : undefined;
  const current = cached !== undefined && cached.subarray(0, HASH_BYTES).equals(sourceHash);
  const script = new Script(`${WRAPPER_START}${source}${WRAPPER_END}`, {
    filename: file,
    cachedData: current ? cached.subarray(HASH_BYTES) : undefined,
  });
  const use: BundleCodeCacheUse = !cacheFile
    ? 'off'
    : cached === undefined
      ? 'absent'
      : !current
        ? 'stale'
        : script.cachedDataRejected
          ? 'rejected'
          : 'used';
  (globalThis as Shared)[USE] = use;
  if (cacheFile && use !== 'used') {
    // At the latest as the process exits (as Node writes its compile cache), if it stops before the service calls it.
    if (pending().push(() => writeCache(script, sourceHash, cacheFile)) === 1)
      process.once('exit', writeBundleCodeCaches);
  }
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** What this process's start did with the service bundle's code cache; undefined when no bundle ran through it. */
export function bundleCodeCacheUse(): BundleCodeCacheUse | undefined {
  return (globalThis as Shared)[USE] as BundleCodeCacheUse | undefined;
}

/**
 * Writes the code cache of each bundle run without a usable one, now that its start has
 * compiled what a start calls (once: later calls, and the one at exit, write nothing). Never throws.
 */
export function writeBundleCodeCaches(): void {
  for (const write of pending().splice(0)) write();
}

function pending(): Array<() => void> {
  const shared = globalThis as Shared;
  shared[PENDING] ??= [];
  return shared[PENDING] as Array<() => void>;
}

/** Written whole or not at all: another instance starting at the same time reads one or the other. */
function writeCache(script: Script, sourceHash: Buffer, cacheFile: string): void {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeFileSync(partial, Buffer.concat([sourceHash, script.createCachedData()]));
    renameSync(partial, cacheFile);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written where nothing can be: a cache not kept, never a failed start.
    }
  }
}

function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
