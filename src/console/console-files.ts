import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the service serves the admin console (`console/`, built by `npm run build`). */
export const CONSOLE_PATH = '/console';

/** The console's built files, relative to the repository (or image) root: `npm run build` writes them there. */
const BUILT_CONSOLE = join('dist', 'console');

/**
 * The folder of the built console. Found from this file's folder upwards (the first
 * folder with a package.json: the repository's, or the image's /app), so that the
 * compiled tree (dist/src/console/), the bundle (dist/bundle/) and the TypeScript
 * sources the tests run (src/console/) all find the same dist/console. Null when the
 * console has not been built (nest build alone): the service then serves no /console.
 */
export function builtConsoleFolder(from: string = import.meta.dirname): string | null {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) {
      const built = join(folder, BUILT_CONSOLE);
      return existsSync(join(built, 'index.html')) ? built : null;
    }
    if (dirname(folder) === folder) return null;
  }
}
