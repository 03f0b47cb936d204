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
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\t\\S+…\\tpro\\t-\\tread,write\\tactive\\tcli e2e$`, 'm'));
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

  describe('expiry and roll, recorded in the audit log by the command line', () => {
    interface Entry {
      actor: { type: string };
      action: string;
      target: { type: string; id: string };
      changes: Record<string, [unknown, unknown]>;
    }
    let admin: string;
    const auditOf = async (id: string): Promise<Entry[]> =>
      (await request(app.http).get('/admin/audit-log').query({ targetId: id }).set('X-API-Key', admin).expect(200))
        .body as Entry[];

    beforeAll(async () => {
      admin = await app.key(['read', 'write', 'admin']);
    });

    it('creates a key with --expires-at, changes it with update, rolls it, and records each change with actor cli', async () => {
      const created = await keys(
        'create',
        '--name',
        'expiring',
        '--plan',
        'free',
        '--expires-at',
        '2031-01-01T00:00:00Z',
      );
      expect(created.code).toBe(0);
      const [, id, secret] =
        /Created API key (\d+) \(free; scopes read; expires 2031-01-01T00:00:00.000Z\)\. It is shown only now:\n(psk_\S+)/.exec(
          created.stdout,
        ) ?? [undefined, undefined, undefined];
      expect(secret).toBeDefined();

      const updated = await keys('update', '--id', id!, '--expires-at', 'never', '--plan', 'pro');
      expect(updated).toEqual({ stdout: `Updated API key ${id} (pro; scopes read; no expiry)\n`, stderr: '', code: 0 });

      const rolled = await keys('roll', '--id', id!, '--overlap-seconds', '60');
      expect(rolled.code).toBe(0);
      const [, until, next] =
        /^Rolled API key \d+; its previous secret works until (\S+)\. The new secret is shown only now:\n(psk_\S+)\n$/.exec(
          rolled.stdout,
        ) ?? [undefined, undefined, undefined];
      expect(next).toBeDefined();
      expect(Date.parse(until!) - Date.now()).toBeGreaterThan(50_000);
      // Both secrets work during the overlap.
      await request(app.http).get('/pets').set('X-API-Key', next!).expect(200);
      await request(app.http).get('/pets').set('X-API-Key', secret!).expect(200);

      expect((await keys('revoke', '--id', id!)).code).toBe(0);

      const entries = (await auditOf(id!)).reverse();
      expect(entries.map((e) => [e.action, e.actor])).toEqual([
        ['api_key.created', { type: 'cli' }],
        ['api_key.updated', { type: 'cli' }],
        ['api_key.rolled', { type: 'cli' }],
        ['api_key.revoked', { type: 'cli' }],
      ]);
      expect(entries[0].changes.expiresAt).toEqual([null, '2031-01-01T00:00:00.000Z']);
      expect(entries[1].changes).toEqual({ plan: ['free', 'pro'], expiresAt: ['2031-01-01T00:00:00.000Z', null] });
      expect(entries[2].changes.previousKeyExpiresAt).toEqual([null, until]);
      const text = JSON.stringify(entries);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(next);
    });

    it('refuses a bad --expires-at, --overlap-seconds or an update without changes, with the usage and exit code 2', async () => {
      for (const args of [
        ['create', '--name', 'x', '--plan', 'free', '--expires-at', 'tomorrow'],
        ['create', '--name', 'x', '--plan', 'free', '--expires-at', 'never'],
        ['roll', '--id', '1', '--overlap-seconds', '-5'],
        ['update', '--id', '1'],
        ['roll'],
      ]) {
        const result = await keys(...args);
        expect({ args, code: result.code }).toEqual({ args, code: 2 });
        expect(result.stderr).toContain('Usage:');
      }
    });

    it('answers a past expiry or an unknown key with the reason and exit code 1', async () => {
      const past = await keys('create', '--name', 'x', '--plan', 'free', '--expires-at', '2020-01-01T00:00:00Z');
      expect(past.code).toBe(1);
      expect(past.stderr).toMatch(/expiresAt/);
      const unknown = await keys('roll', '--id', '999999');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('999999');
    });

    it('puts a key into an account with --account and takes it out with --account none, recorded by the command line', async () => {
      const account = (
        await request(app.http)
          .post('/admin/accounts')
          .set('X-API-Key', admin)
          .send({ name: 'Acme via CLI', plan: 'business' })
          .expect(201)
      ).body as { id: number };

      const created = await keys('create', '--name', 'acme key', '--account', String(account.id));
      expect(created.code).toBe(0);
      const [, id, secret] = new RegExp(
        `Created API key (\\d+) \\(business in account ${account.id}; scopes read\\)\\. It is shown only now:\\n(psk_\\S+)`,
      ).exec(created.stdout) ?? [undefined, undefined, undefined];
      expect(secret).toBeDefined();
      await request(app.http).get('/pets').set('X-API-Key', secret!).expect(200);
      expect((await keys('list')).stdout).toMatch(
        new RegExp(`^${id}\\t\\S+…\\tbusiness\\taccount ${account.id}\\tread\\tactive\\tacme key$`, 'm'),
      );

      const withPlan = await keys('create', '--name', 'x', '--plan', 'pro', '--account', String(account.id));
      expect(withPlan.code).toBe(1);
      expect(withPlan.stderr).toContain(`account ${account.id}`);
      const unknownAccount = await keys('create', '--name', 'x', '--account', '999999');
      expect(unknownAccount.code).toBe(1);
      expect(unknownAccount.stderr).toContain('999999');
      expect((await keys('create', '--name', 'x', '--account', 'none')).code).toBe(2);

      const out = await keys('update', '--id', id!, '--account', 'none');
      expect(out).toEqual({
        stdout: `Updated API key ${id} (business; scopes read; no expiry)\n`,
        stderr: '',
        code: 0,
      });
      const entries = (await auditOf(id!)).reverse();
      expect(entries.map((e) => [e.action, e.actor])).toEqual([
        ['api_key.created', { type: 'cli' }],
        ['api_key.updated', { type: 'cli' }],
      ]);
      expect(entries[0].changes.accountId).toEqual([null, account.id]);
      expect(entries[1].changes.accountId).toEqual([account.id, null]);
    });

    it('documents update and roll in --help', async () => {
      const help = await keys('--help');
      expect(help.stdout).toContain('npm run keys -- update --id <keyId>');
      expect(help.stdout).toContain('npm run keys -- roll --id <keyId> [--overlap-seconds N]');
      expect(help.stdout).toContain('--expires-at');
      expect(help.stdout).toContain('--account <accountId>');
    });
  });
});
