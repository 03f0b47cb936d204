import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY, freePort, type ServiceProcess, spawnService, waitUntilReady } from './support/spawn-service.mjs';

/**
 * Where the key sealing webhook secrets comes from, with the built service started as
 * `npm start` does: on a DATABASE_URL (which other instances may share) it must be
 * WEBHOOKS_SECRET_KEY, else the service stops at once naming the variable; on the
 * embedded database it may be a key file the service makes in its DATA_DIR.
 */
describe('the key sealing webhook secrets (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-secret-key-'));
  chmodSync(dir, 0o755); // under root, the embedded server runs as 'postgres' and must reach its directory
  const started: ServiceProcess[] = [];

  afterAll(async () => {
    for (const service of started) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGTERM');
        await service.exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function spawn(name: string, env: Record<string, string | undefined>): Promise<ServiceProcess> {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
    const service = spawnService({
      name,
      port: await freePort(),
      env: { NODE_OPTIONS: undefined, REDIS_URL: undefined, LOG_LEVEL: 'info', DATA_DIR: join(dir, name), ...env },
    });
    started.push(service);
    return service;
  }

  it('is required with a DATABASE_URL: the service exits 1 naming WEBHOOKS_SECRET_KEY, writing no key', async () => {
    const service = await spawn('shared', { DATABASE_URL: process.env.DATABASE_URL, WEBHOOKS_SECRET_KEY: undefined });
    expect((await service.exited).code).toBe(1);
    expect(service.output()).toContain('Invalid configuration: WEBHOOKS_SECRET_KEY must be set when DATABASE_URL is');
    const written = existsSync(join(dir, 'shared')) ? readdirSync(join(dir, 'shared')) : [];
    expect(written).toEqual([]);
  }, 30_000);

  it('is a key file of DATA_DIR on the embedded database, made (mode 0600) when a first secret is sealed', async () => {
    const adminKey = `psk_secret_key_${randomBytes(16).toString('hex')}`;
    const service = await spawn('embedded', {
      DATABASE_URL: undefined,
      WEBHOOKS_SECRET_KEY: undefined,
      BOOTSTRAP_ADMIN_KEY: adminKey,
      SEED_DEMO_DATA: 'false',
      WEBHOOKS_DISPATCHER: 'false',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_ALLOWED_PORTS: 'any', // the URL names port 9
    });
    await waitUntilReady(service, async () => (await fetch(`${service.base}/health/ready`)).status === 200, {
      attempts: 240,
      intervalMs: 250,
    });
    const keyFile = join(dir, 'embedded', 'webhook-secret.key');
    expect(existsSync(keyFile)).toBe(false);

    const res = await fetch(`${service.base}/webhooks`, {
      method: 'POST',
      headers: { 'X-API-Key': adminKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['order.placed'] }),
    });
    expect(res.status).toBe(201);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
