import { constants, enableCompileCache, flushCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CompileCacheOutcome {
  enabled: boolean;
  /** The directory when enabled, else why not. */
  detail: string;
}

/** Where the outcome is kept for the log line written later: the entry and the service are separate bundles. */
const OUTCOME = Symbol.for('petstore.compileCache');

/**
 * Where Node keeps its compile cache for this service: `petstore-compile-cache` in the
 * system's temporary directory (TMPDIR). The cache belongs to the build, not to a data
 * directory: every data directory a build runs on — a fresh one included — finds it warm.
 * Node adds a subdirectory per Node version, so one directory serves every version.
 */
export function compileCacheDirectory(): string {
  return join(tmpdir(), 'petstore-compile-cache');
}

/**
 * Turns on Node's compile cache (`module.enableCompileCache`): the V8 code of every module
 * loaded from then on is kept on disk, and the next start reuses it instead of compiling.
 * Never throws: a directory that cannot be written, or NODE_DISABLE_COMPILE_CACHE=1, leaves
 * the cache off and the outcome says why. With NODE_COMPILE_CACHE set, Node has already
 * enabled it in that directory, which stays.
 */
export function enableNodeCompileCache(): CompileCacheOutcome {
  let outcome: CompileCacheOutcome;
  try {
    const result = enableCompileCache(compileCacheDirectory());
    const { ENABLED, ALREADY_ENABLED, DISABLED } = constants.compileCacheStatus;
    if (result.status === ENABLED || result.status === ALREADY_ENABLED) {
      outcome = { enabled: true, detail: result.directory ?? '' };
    } else if (result.status === DISABLED) {
      outcome = { enabled: false, detail: 'disabled by NODE_DISABLE_COMPILE_CACHE' };
    } else {
      outcome = { enabled: false, detail: result.message ?? 'could not be enabled' };
    }
  } catch (error) {
    outcome = { enabled: false, detail: error instanceof Error ? error.message : String(error) };
  }
  (globalThis as Record<symbol, unknown>)[OUTCOME] = outcome;
  return outcome;
}

/** The outcome of `enableNodeCompileCache` in this process, for a debug log line; undefined when it was not called. */
export function compileCacheOutcome(): CompileCacheOutcome | undefined {
  return (globalThis as Record<symbol, unknown>)[OUTCOME] as CompileCacheOutcome | undefined;
}

/**
 * Writes what the compile cache holds to disk now (Node otherwise writes it as the process
 * exits), once the service is ready: a process that is then killed (SIGKILL, out of memory)
 * still leaves the next start a warm cache. Never throws, and does nothing when the cache is off.
 */
export function flushNodeCompileCache(): void {
  if (!compileCacheOutcome()?.enabled) return;
  try {
    flushCompileCache();
  } catch {
    // A cache that cannot be written leaves the next start to compile: never a failed start.
  }
}
