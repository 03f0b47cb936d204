import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './support/eventually.js';
import { alive, postmasterPid } from './support/processes.js';
import { ENTRY, freePort, spawnService, waitUntilReady } from './support/spawn-service.mjs';

type Service = ReturnType<typeof spawnService>;

/**
 * The embedded PostgreSQL belongs to whichever service process runs it: when the
 * Node process alone is killed, its database keeps running; the next start adopts
 * that database (rather than failing on the busy data directory) and stops it
 * when it stops itself, so no server is left behind.
 */
describe('an embedded PostgreSQL orphaned by a killed service', () => {
  let dir: string;
  const services: Service[] = [];

  afterAll(async () => {
    for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    const pid = suitePostmaster();
    if (pid !== null && alive(pid)) process.kill(pid, 'SIGINT');
    if (pid !== null) await eventually(() => !alive(pid), 20_000).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The embedded PostgreSQL of this suite's data directory, once there is one. */
  const suitePostmaster = (): number | null => (dir ? postmasterPid(dir) : null);

  async function start(adminKey: string): Promise<Service> {
    const port = await freePort();
    const service = spawnService({
      name: 'the service',
      port,
      entry: ENTRY,
      env: {
        NODE_OPTIONS: undefined,
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        DATA_DIR: join(dir, 'data'),
        BOOTSTRAP_ADMIN_KEY: adminKey,
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'info',
      },
    });
    services.push(service);
    await waitUntilReady(service, async () => (await fetch(`${service.base}/health/ready`)).status === 200, {
      attempts: 240,
      intervalMs: 250,
    });
    return service;
  }

  it('is adopted by the next start and stopped when that service stops', async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
    dir = mkdtempSync(join(tmpdir(), 'petstore-orphan-'));
    chmodSync(dir, 0o755); // under root, the embedded server runs as 'postgres' and must reach its directory
    const adminKey = `psk_orphan_${randomBytes(16).toString('hex')}`;

    const first = await start(adminKey);
    const postmaster = suitePostmaster();
    expect(postmaster).not.toBeNull();
    first.child.kill('SIGKILL');
    await first.exited;
    expect(alive(postmaster as number)).toBe(true); // orphaned: the database outlived its service

    const second = await start(adminKey);
    expect(second.output()).toMatch(/Adopting the embedded PostgreSQL left running/);
    expect(suitePostmaster()).toBe(postmaster);
    const pets = await fetch(`${second.base}/pets`, { headers: { 'X-API-Key': adminKey } });
    expect(pets.status).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    await eventually(() => !alive(postmaster as number), 20_000);
    expect(existsSync(join(dir, 'data', 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dir, 'data', 'postgres.owner'))).toBe(false);
  }, 120_000);
});
