import { createHash } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Fresh embedded clusters made from a copy of an earlier initdb's output instead
 * of running initdb again (1.2-1.5 s of a first start on a 2-core machine; a copy
 * takes a fraction of that). initdb's output depends only on the PostgreSQL build
 * and the settings it is given, which name the template (`templateKey`); the first
 * fresh start with some settings runs initdb and keeps a copy before starting the
 * server. A cluster made from a template has the template's superuser password
 * (kept beside it, readable only by its owner) and its system identifier.
 *
 * `EMBEDDED_PG_TEMPLATES` names the directory of templates (default: the
 * `.cache/petstore/pg-templates` of the node_modules that holds the binaries, the
 * place of npm tools' caches, gone with node_modules; `~/.cache/petstore/pg-templates`
 * for binaries installed elsewhere); `off` makes every fresh cluster with initdb.
 */
export interface ClusterTemplate {
  readonly dir: string;
  readonly password: string;
}

const CLUSTER = 'cluster';
const PASSWORD = 'password';

/** The directory of templates for the binaries beside `initdb`; null when templates are off. */
export function templatesDir(env: Readonly<Record<string, string | undefined>>, initdb: string): string | null {
  const configured = env.EMBEDDED_PG_TEMPLATES?.trim();
  if (configured === 'off') return null;
  if (configured) return configured;
  const modules = initdb.lastIndexOf(`${sep}node_modules${sep}`);
  const cache = modules >= 0 ? join(initdb.slice(0, modules), 'node_modules', '.cache') : join(homedir(), '.cache');
  return join(cache, 'petstore', 'pg-templates');
}

/** The template's name for initdb at `initdb` (its build: size and time) with these settings. */
export function templateKey(initdb: string, settings: readonly string[]): string {
  const binary = statSync(initdb);
  return createHash('sha256')
    .update(JSON.stringify([initdb, binary.size, binary.mtimeMs, ...settings]))
    .digest('hex')
    .slice(0, 24);
}

/** The complete template `key` in `dir`, if one was made. */
export function findTemplate(dir: string, key: string): ClusterTemplate | null {
  const template = join(dir, key);
  try {
    if (!existsSync(join(template, CLUSTER, 'PG_VERSION'))) return null;
    return { dir: template, password: readFileSync(join(template, PASSWORD), 'utf8').trim() };
  } catch {
    return null;
  }
}

/**
 * Copies the template's cluster into `clusterDir` (owners and modes kept: `cp -a`),
 * in a process of its own: `onCopying` is told once it runs, so that the caller can
 * work meanwhile.
 */
export async function copyTemplate(
  template: ClusterTemplate,
  clusterDir: string,
  onCopying: () => void,
): Promise<void> {
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const copying = execFileAsync('cp', ['-a', `${join(template.dir, CLUSTER)}/.`, `${clusterDir}/`]);
  onCopying();
  await copying;
  chmodSync(clusterDir, 0o700); // PostgreSQL refuses a data directory others can read
}

/**
 * Keeps a copy of the stopped, freshly initialised `clusterDir` as template `key`,
 * with the password initdb was given. Made aside and renamed into place, so that a
 * template is either complete or absent (two starts making one at once: the second
 * rename fails, its copy is dropped). Best effort: false when it could not be kept.
 */
export function saveTemplate(dir: string, key: string, clusterDir: string, password: string): boolean {
  const partial = join(dir, `${key}.${process.pid}.partial`);
  try {
    mkdirSync(partial, { recursive: true, mode: 0o700 });
    writeFileSync(join(partial, PASSWORD), `${password}\n`, { mode: 0o600 });
    execFileSync('cp', ['-a', clusterDir, join(partial, CLUSTER)]);
    renameSync(partial, join(dir, key));
    return true;
  } catch {
    rmSync(partial, { recursive: true, force: true });
    return false;
  }
}
