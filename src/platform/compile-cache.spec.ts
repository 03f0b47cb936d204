import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileCacheDirectory } from './compile-cache.js';

/** This very source, for a fresh `node` to import (Node strips its types). */
const SOURCE = JSON.stringify(pathToFileURL(resolve('src/platform/compile-cache.ts')).href);

/** A fresh `node`'s environment: this one's without its compile cache settings, then `env`. */
function freshNodeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  delete inherited.NODE_COMPILE_CACHE;
  delete inherited.NODE_DISABLE_COMPILE_CACHE;
  return { ...inherited, NODE_OPTIONS: '', ...env };
}

/**
 * Enabling the cache is once per process, so each case runs in a fresh `node` that loads
 * this very source and prints what enableNodeCompileCache returned and what
 * compileCacheOutcome() then reports.
 */
function enableInFreshNode(env: NodeJS.ProcessEnv) {
  const code =
    `const m = await import(${SOURCE});` +
    'const returned = m.enableNodeCompileCache();' +
    'console.log(JSON.stringify({ returned, kept: m.compileCacheOutcome() }));';
  const run = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', code], {
    env: freshNodeEnv(env),
    encoding: 'utf8',
  });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout) as { returned: { enabled: boolean; detail: string }; kept: unknown };
}

describe('Node compile cache', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'compile-cache-spec-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lives in the temporary directory, whatever the data directory', () => {
    expect(compileCacheDirectory()).toBe(join(tmpdir(), 'petstore-compile-cache'));
  });

  it('is enabled in $TMPDIR/petstore-compile-cache, and the outcome is kept for the log line', () => {
    const { returned, kept } = enableInFreshNode({ TMPDIR: dataDir, DATA_DIR: join(dataDir, 'data') });
    expect(returned).toEqual({ enabled: true, detail: join(dataDir, 'petstore-compile-cache') });
    expect(kept).toEqual(returned);
    expect(statSync(join(dataDir, 'petstore-compile-cache')).isDirectory()).toBe(true);
  });

  it('stays off without failing when its directory cannot be made', () => {
    writeFileSync(join(dataDir, 'petstore-compile-cache'), 'a file where the directory would be');
    const { returned } = enableInFreshNode({ TMPDIR: dataDir });
    expect(returned.enabled).toBe(false);
    expect(returned.detail).not.toBe('');
  });

  it('is on disk once flushed, though the process is then killed before it could write it at exit', async () => {
    /** Files in the cache's directory after a fresh node loads a module and is killed from outside, flushing first or not. */
    const cachedAfterKill = async (flush: boolean): Promise<number> => {
      const dir = mkdtempSync(join(dataDir, 'run-'));
      writeFileSync(join(dir, 'loaded.cjs'), 'exports.loaded = () => 1;\n');
      const code =
        `const m = await import(${SOURCE}); m.enableNodeCompileCache();` +
        `await import(${JSON.stringify(pathToFileURL(join(dir, 'loaded.cjs')).href)});` +
        `${flush ? 'm.flushNodeCompileCache();' : ''} console.log('loaded'); setInterval(() => {}, 1000);`;
      const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', code], {
        env: freshNodeEnv({ TMPDIR: dir }),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise((done) => child.once('exit', (_code, signal) => done(signal)));
      await new Promise((loaded) => child.stdout.once('data', loaded));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      const files = (at: string): string[] =>
        readdirSync(at, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? files(join(at, entry.name)) : [join(at, entry.name)],
        );
      return files(join(dir, 'petstore-compile-cache')).length;
    };
    expect(await cachedAfterKill(false)).toBe(0);
    expect(await cachedAfterKill(true)).toBe(1);
  });

  it('stays off with NODE_DISABLE_COMPILE_CACHE=1', () => {
    const { returned } = enableInFreshNode({ TMPDIR: dataDir, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(returned).toEqual({ enabled: false, detail: 'disabled by NODE_DISABLE_COMPILE_CACHE' });
  });
});
