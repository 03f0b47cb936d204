import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY, freePort, spawnService } from './support/spawn-service.mjs';

/**
 * Instances on one DATABASE_URL must seal webhook secrets with one key: the built
 * service, started as `npm start` does on a DATABASE_URL without WEBHOOKS_SECRET_KEY,
 * stops at once with a message naming the variable, and writes no key file of its own.
 */
describe('WEBHOOKS_SECRET_KEY with a DATABASE_URL (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-secret-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is required: the service exits 1 naming it, before touching DATA_DIR', async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
    const service = spawnService({
      name: 'the service',
      port: await freePort(),
      env: {
        NODE_OPTIONS: undefined,
        DATABASE_URL: process.env.DATABASE_URL,
        DATA_DIR: join(dir, 'data'),
        WEBHOOKS_SECRET_KEY: undefined,
        LOG_LEVEL: 'info',
      },
    });
    const { code } = await service.exited;
    expect(code).toBe(1);
    expect(service.output()).toContain('Invalid configuration: WEBHOOKS_SECRET_KEY must be set when DATABASE_URL is');
    expect(existsSync(join(dir, 'data')) ? readdirSync(join(dir, 'data')) : []).toEqual([]);
  }, 30_000);
});
