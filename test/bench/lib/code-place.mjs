// Where a profile's frame lives, as the bench's reports name it.

/**
 * The package of a `node_modules` path; the service's own file for a path under `dist/`
 * (`src/…`, `libs/…`); otherwise the path (a Node module `node:…`, a file of this
 * checkout relative to the working directory).
 */
export function codePlace(path) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  const local = path.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
  const own = /(?:^|\/)dist\/(.*)$/.exec(local);
  return own ? own[1] : local;
}
