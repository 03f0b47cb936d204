import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createTestApp, type TestApp } from './support/test-app.js';

const CLI = resolve('dist/src/cli/keys.js');
const run = promisify(execFile);

/** `npm run keys` as an operator runs it, on the test database (README, docs/api-keys.md). */
async function keys(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...process.env } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('keys CLI (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
    app = await createTestApp();
    await app.reset();
  });

  afterAll(() => app.close());

  it('creates a key that the service accepts, lists it, and revokes it', async () => {
    const created = await keys('create', '--name', 'cli e2e', '--plan', 'pro', '--scopes', 'read,write');
    expect(created.code).toBe(0);
    const [, id, secret] = /Created API key (\d+) \(pro; scopes read,write\)\. It is shown only now:\n(psk_\S+)/.exec(
      created.stdout,
    ) ?? [undefined, undefined, undefined];
    expect(secret).toBeDefined();
    await request(app.http).get('/pets').set('X-API-Key', secret!).expect(200);

    const listed = await keys('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\t\\S+…\\tpro\\tread,write\\tactive\\tcli e2e$`, 'm'));
    expect(listed.stdout).not.toContain(secret);

    expect((await keys('revoke', '--id', id!)).stdout).toBe(`Revoked API key ${id}\n`);
    expect((await keys('list')).stdout).toMatch(new RegExp(`^${id}\\t.*\\trevoked \\S+\\tcli e2e$`, 'm'));
  });

  it('refuses a bad command line with its usage and exit code 2', async () => {
    const result = await keys('create', '--name', 'x', '--plan', 'platinum');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--plan must be one of free, pro, business, enterprise');
    expect(result.stderr).toContain('Usage:');
  });

  it('answers an unknown option with its usage and exit code 2, and --help with the usage alone', async () => {
    const unknown = await keys('list', '--colour');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
    expect(unknown.stderr).toContain('Usage:');
    expect(unknown.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const help = await keys('--help');
    expect(help).toEqual({ stdout: expect.stringContaining('Usage:'), stderr: '', code: 0 });
  });
});
