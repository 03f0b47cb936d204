import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { eventually } from './eventually.js';
import { type ServiceProcess, startUntilReady } from './spawn-service.mjs';

export interface BundleReport<T> {
  /** What the reporter wrote after its tag, parsed. */
  readonly report: T;
  /** How the service's process ended. */
  readonly exit: Awaited<ServiceProcess['exited']>;
}

/**
 * Runs the built service (`dist/petstore.mjs`) with `reporter` (a file of
 * test/support) loaded by `node --require`, asks it for `path` (200 expected),
 * stops it (SIGTERM), and returns the JSON the reporter wrote on a line starting
 * with `tag`: written while it runs (`when: 'running'`, waited for before the stop)
 * or as the process exits (`when: 'exiting'`).
 */
export async function bundleReport<T>(
  reporter: string,
  tag: string,
  { path, when }: { path: string; when: 'running' | 'exiting' },
): Promise<BundleReport<T>> {
  const service = await startUntilReady({
    entry: resolve('dist/petstore.mjs'),
    env: {
      NODE_OPTIONS: `--require ${resolve('test/support', reporter)}`, // not Jest's --experimental-vm-modules
      BOOTSTRAP_ADMIN_KEY: `psk_bundle_${randomBytes(16).toString('hex')}`,
      LOG_LEVEL: 'warn',
    },
  });
  try {
    expect((await fetch(`${service.base}${path}`)).status).toBe(200);
    if (when === 'running') await eventually(() => service.output().includes(`${tag} `), 10_000);
  } finally {
    service.child.kill('SIGTERM');
  }
  const exit = await service.exited;
  const line = new RegExp(`${tag} (.*)`).exec(service.output());
  if (!line) throw new Error(`the service exited (${JSON.stringify(exit)}) without reporting ${tag}`);
  return { report: JSON.parse(line[1]) as T, exit };
}
