// The Node flags `npm start` runs a build with, for the tests and the bench that start
// the built service themselves: the words between `node` and the entry in its
// package.json's start script (`node <flags> dist/petstore.cjs`: the flags live there only), so
// each build, the baseline of a benchmark included, runs as its own `npm start` does.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The words of `root`'s package.json start script, `['node', ...flags, entry]`; undefined
 * without a package.json. Throws for a start script of another shape.
 */
export function startCommand(root) {
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const words = (JSON.parse(readFileSync(manifest, 'utf8')).scripts?.start ?? '').trim().split(/\s+/);
  if (words[0] !== 'node' || words.length < 2) throw new Error(`${manifest}: start is not 'node [flags] <entry>'`);
  return words;
}

/** The start script's Node flags for `entry`, a file of a build's `dist/`; none for any other script. */
export function startFlags(entry) {
  for (let dir = dirname(resolve(entry)); ; dir = dirname(dir)) {
    const command = startCommand(dir);
    if (command) return relative(dir, resolve(entry)).startsWith(`dist${sep}`) ? command.slice(1, -1) : [];
    if (dirname(dir) === dir) return [];
  }
}
