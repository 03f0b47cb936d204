import { hash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { readIfPresent } from '../shared/read-if-present.js';
import { processEvents, STARTED_EVENT } from './started-event.js';

/** After the service listens, and before the heap is compacted (250 ms): its bytecode is all compiled by then. */
const CACHE_WRITE_DELAY_MS = 100;

/** How a run used the code cache: read and accepted, none there, or refused (another build, Node or V8 flags). */
export type CodeCacheUse = 'used' | 'absent' | 'rejected';

/** Runs `import()` for the bundle (a script compiled by `vm` has no module loader of its own). */
export type ImportModule = (specifier: string) => Promise<unknown>;

export interface BundleRun {
  /** SHA-256 of the bundle's source, as the cache file records it. */
  readonly sourceHash: Buffer;
  /** What the bundle left in `module.exports` (the service leaves nothing). */
  readonly exports: unknown;
  readonly script: Script;
  readonly cache: CodeCacheUse;
  readonly cacheFile: string;
}

/**
 * The parameters the bundle's code is wrapped in: CommonJS's five, the URL that
 * `import.meta.url` stands for in the bundle, and its dynamic `import()`.
 */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname, __bundleUrl, __import) {';
const WRAPPER_END = '\n})';

/**
 * The cache file starts with the SHA-256 of the source it was made from: V8 checks
 * only the source's length, so a rebuilt bundle of the same length would otherwise
 * run the bytecode of the old one.
 */
const SOURCE_HASH_BYTES = 32;

/**
 * Runs the CommonJS bundle at `file` (the built service) with V8's code cache:
 * compiling the 6 MB bundle and the functions its start-up runs is about a fifth
 * of a start, and V8 can instead read that work back from `<file>.cache`. Without
 * a usable cache (the first start after a build, another Node version or other V8
 * flags) the bundle is compiled as usual, and the cache is written once the service
 * has started (`STARTED_EVENT`), so that it also holds the functions that the start
 * ran. Writing is best effort: a read-only directory only means no cache.
 */
export function runBundle(file: string, importModule: ImportModule): BundleRun {
  const cacheFile = `${file}.cache`;
  const source = readFileSync(file);
  const sourceHash = hash('sha256', source, 'buffer');
  const cached = readIfPresent(cacheFile);
  const matches = cached !== undefined && cached.subarray(0, SOURCE_HASH_BYTES).equals(sourceHash);
  // The bundle is ASCII (scripts/bundle.mjs escapes the rest): latin1 decodes it as it is, without UTF-8's checks.
  const script = new Script(`${WRAPPER_START}${source.toString('latin1')}${WRAPPER_END}`, {
    filename: file,
    cachedData: matches ? cached.subarray(SOURCE_HASH_BYTES) : undefined,
  });
  const cache: CodeCacheUse = !cached ? 'absent' : !matches || script.cachedDataRejected ? 'rejected' : 'used';
  if (cache !== 'used') {
    processEvents.once(STARTED_EVENT, () =>
      setTimeout(() => writeCodeCache(script, sourceHash, cacheFile), CACHE_WRITE_DELAY_MS).unref(),
    );
  }
  const module: { exports: unknown } = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    pathToFileURL(file).href,
    importModule,
  );
  return { exports: module.exports, script, sourceHash, cache, cacheFile };
}

/** Writes the script's code cache beside it, atomically (a concurrent start reads the old file or the new one). */
export function writeCodeCache(script: Script, sourceHash: Buffer, cacheFile: string): boolean {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, Buffer.concat([sourceHash, script.createCachedData()]));
    renameSync(partial, cacheFile);
    return true;
  } catch {
    rmSync(partial, { force: true });
    return false;
  }
}

/** The bundle beside the launcher at `launcherUrl` (dist/petstore.mjs runs dist/petstore.cjs). */
export function bundleBeside(launcherUrl: string): string {
  return fileURLToPath(new URL('./petstore.cjs', launcherUrl));
}
