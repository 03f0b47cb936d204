// What the benches read from their environment the same way: which build to run, and the
// tracing scenarios' sampling ratio.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCommand } from '../../support/start-flags.mjs';

/**
 * The file to run for a build: an entry file as given (the bundle dist/petstore.cjs, or
 * the compiled tree's dist/src/main.js or dist/src/start.js), or for a directory the
 * entry of its package.json's start script (a worktree), else its petstore.cjs (a dist
 * directory) or dist/petstore.cjs.
 */
export function buildEntry(path, name) {
  const full = resolve(path);
  if (!existsSync(full)) throw new Error(`${name}: no such file or directory '${full}' (built?)`);
  if (!statSync(full).isDirectory()) return full;
  const started = startEntry(full);
  if (started) return started;
  const entry = [join(full, 'petstore.cjs'), join(full, 'dist', 'petstore.cjs')].find((file) => existsSync(file));
  if (!entry) throw new Error(`${name}: '${full}' holds neither petstore.cjs nor dist/petstore.cjs`);
  return entry;
}

/** A worktree's entry as its own `npm start` names it (an older build may start another file), if it has one. */
function startEntry(root) {
  const entry = startCommand(root)?.at(-1);
  return entry && existsSync(join(root, entry)) ? join(root, entry) : undefined;
}

/** BENCH_TRACING_RATIO: `normal` when unset, else a number from 0 to 1. */
export function ratioOption(value, normal) {
  if (value === undefined || value === '') return normal;
  const ratio = Number(value);
  if (!(ratio >= 0 && ratio <= 1)) throw new Error('BENCH_TRACING_RATIO must be a number from 0 to 1');
  return ratio;
}
