// Cold start: from spawning a build to its first 200 of GET /health/ready, on an
// embedded PostgreSQL with a fresh data directory (initdb, migrations, seed), on the
// same directory again (a second start), and on the machine's PostgreSQL with the
// schema already migrated: there once with the compile cache emptied (the first start
// after a build) and once more (a warm cache). With several builds (the service and a
// baseline), each kind of start alternates the builds run by run: A B A B …
//
// Where a build keeps a compile cache: this service under the system's temporary directory,
// which its embedded starts share with the bench's earlier starts of the same build (a warm
// cache, as on a machine that ran the build before); each build gets a private TMPDIR for its
// machine PostgreSQL starts, emptied before every first start, as are the directories named
// in `clearDirs` (BENCH_CLEAR_COMPILE_CACHE, NODE_COMPILE_CACHE); a file named there (a build
// that keeps its cache beside its bundle) is removed. Every directory is made in the system's
// temporary directory itself: under root, the embedded PostgreSQL runs as another user, who
// must reach it.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startProcess, stopProcess, waitForOk } from './processes.mjs';

const POLL_MS = 20;

/** The kinds of start, in the order each run makes them. */
export const COLD_KINDS = [
  { id: 'embeddedFresh', label: 'embedded PostgreSQL, fresh data directory' },
  { id: 'embeddedSecond', label: 'embedded PostgreSQL, second start' },
  { id: 'machineFirst', label: 'machine PostgreSQL, first start (cache emptied)' },
  { id: 'machineWarm', label: 'machine PostgreSQL, next start (warm cache)' },
];

async function timeToReady(name, script, env, logDir) {
  const server = await startProcess({ name, script, env, logDir });
  try {
    return await waitForOk(server, '/health/ready', { intervalMs: POLL_MS, timeoutMs: 120_000 });
  } finally {
    await stopProcess(server, 30_000);
  }
}

/** Bytes of every file under `dir`, or of the file `dir` (0 when it does not exist). */
function bytesUnder(dir) {
  let total = 0;
  let entries;
  try {
    const stat = statSync(dir);
    if (stat.isFile()) return stat.size;
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/**
 * Empties `path` when it is a directory (created again, empty), removes it when it is a file
 * (a build that keeps its cache in one), leaves it when absent; refuses a path too close to the
 * root to be a cache.
 */
function empty(path) {
  const target = resolve(path);
  if (target.split('/').filter(Boolean).length < 2) throw new Error(`refusing to empty '${target}'`);
  let directory;
  try {
    directory = statSync(target).isDirectory();
  } catch {
    return;
  }
  rmSync(target, { recursive: true, force: true });
  if (directory) mkdirSync(target, { recursive: true });
}

/**
 * `runs` of each kind of start for every build of `builds` (`{ name, script }`); every
 * time in ms. `clearDirs` are emptied before each first start, as each build's TMPDIR.
 */
export async function measureColdStarts({ builds, env, databaseUrl, runs, logDir, log, clearDirs = [] }) {
  const state = builds.map((build) => ({
    ...build,
    tmp: mkdtempSync(join(tmpdir(), `petstore-bench-tmp-${build.name}-`)),
    times: Object.fromEntries(COLD_KINDS.map((kind) => [kind.id, []])),
    cacheBytes: [],
  }));
  const start = async (build, kind, extra) => {
    build.times[kind].push(await timeToReady(`cold-${build.name}`, build.script, { ...env, ...extra }, logDir));
  };
  try {
    for (let run = 1; run <= runs; run++) {
      const dataDirs = state.map(() => mkdtempSync(join(tmpdir(), 'petstore-bench-data-')));
      try {
        const embedded = (i) => ({ DATABASE_URL: undefined, DATA_DIR: dataDirs[i] });
        for (const [i, build] of state.entries()) await start(build, 'embeddedFresh', embedded(i));
        for (const [i, build] of state.entries()) await start(build, 'embeddedSecond', embedded(i));
      } finally {
        for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
      }
      // Each build's first start and its next one back to back: a cache directory named in
      // clearDirs may be shared by the builds, and emptying it for one must not empty it for
      // the other between its two starts.
      for (const build of state) {
        const machine = { DATABASE_URL: databaseUrl, DATA_DIR: undefined, TMPDIR: build.tmp };
        for (const dir of [build.tmp, ...clearDirs]) empty(dir);
        await start(build, 'machineFirst', machine);
        build.cacheBytes.push([build.tmp, ...clearDirs].reduce((sum, dir) => sum + bytesUnder(dir), 0));
        await start(build, 'machineWarm', machine);
      }
      for (const build of state) {
        const last = COLD_KINDS.map((kind) => `${kind.id} ${Math.round(build.times[kind.id].at(-1))}`);
        log(`  run ${run} ${build.name.padEnd(9)} ${last.join(', ')} ms`);
      }
    }
  } finally {
    for (const build of state) rmSync(build.tmp, { recursive: true, force: true });
  }
  return {
    runs,
    clearDirs,
    builds: Object.fromEntries(
      state.map((build) => [build.name, { script: build.script, ...build.times, cacheBytes: build.cacheBytes }]),
    ),
  };
}
