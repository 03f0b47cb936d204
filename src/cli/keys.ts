import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AuthModule, isScope, type KeyLimits, type Scope } from '@petstore/auth';
import { ApiKeyStoreModule, ApiKeysModule, ApiKeysService } from '../api-keys/index.js';
import { SCHEMA } from '../app.schema.js';
import { CLI } from '../audit/index.js';
import { appConfig } from '../config/app.config.js';
import { DatabaseModule } from '../database/database.module.js';
import { resolveDatabaseUrl } from '../database/database-url.js';
import { isPlanName } from '../rate-limits/plan.js';
import { PlansModule } from '../rate-limits/plans.module.js';

const USAGE = `Usage:
  npm run keys -- create --name <name> (--plan <free|pro|business|enterprise> | --account <accountId>) [--scopes read,write,admin] [--per-minute N --per-day N] [--expires-at <date-time>]
  npm run keys -- update --id <keyId> [--plan <plan>] [--account <accountId>|none] [--scopes read,write,admin] [--per-minute N --per-day N] [--expires-at <date-time>|never]
  npm run keys -- roll --id <keyId> [--overlap-seconds N]
  npm run keys -- list
  npm run keys -- revoke --id <keyId>

--scopes defaults to read on create. --expires-at is an ISO 8601 date-time in the future (2027-06-30T00:00:00Z);
never removes the expiry. A key in an account (--account, see GET /admin/accounts) has the account's plan and
limits, so it takes no --plan or limits of its own; --account none takes it out. roll gives the key a new secret; the previous one keeps working for --overlap-seconds
(default 86400, 0: not at all, at most 30 days). Every change is recorded in the audit log, by the command line.`;

const COMMANDS = ['create', 'update', 'roll', 'list', 'revoke'];
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig] }),
    DatabaseModule.forRoot(SCHEMA),
    AuthModule.forRoot({ storeModule: ApiKeyStoreModule }),
    PlansModule, // the admin plans route of ApiKeysModule reads the plan table
    ApiKeysModule,
  ],
})
class KeysCliModule {}

/** How the command's output names a key's account: ` in account 3`, or nothing. */
function inAccount(accountId: number | undefined): string {
  return accountId === undefined ? '' : ` in account ${accountId}`;
}

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(raw)) fail(`--${name} must be a positive integer`);
  return Number(raw);
}

function nonNegativeInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^(0|[1-9]\d{0,9})$/.test(raw)) fail(`--${name} must be a whole number of seconds`);
  return Number(raw);
}

/** --expires-at: a date-time, `never` (null: remove it), or absent (undefined). */
function expiry(raw: string | undefined, allowNever: boolean): Date | null | undefined {
  if (raw === undefined) return undefined;
  if (allowNever && raw === 'never') return null;
  const date = new Date(raw);
  if (!DATE_TIME.test(raw) || Number.isNaN(date.getTime())) {
    fail(`--expires-at must be an ISO 8601 date-time such as 2027-06-30T00:00:00Z${allowNever ? ', or never' : ''}`);
  }
  return date;
}

/** --account: an account id, `none` (null: out of any account), or absent (undefined). */
function accountOf(raw: string | undefined, allowNone: boolean): number | null | undefined {
  if (allowNone && raw === 'none') return null;
  return positiveInt('account', raw);
}

function scopesOf(raw: string): Scope[] {
  const scopes = raw.split(',').map((s) => s.trim());
  if (!scopes.every(isScope)) fail('--scopes must be a comma-separated list of read, write, admin');
  return scopes;
}

/** --per-minute and --per-day together, or neither (undefined). */
function limitsOf(rawPerMinute: string | undefined, rawPerDay: string | undefined): KeyLimits | undefined {
  const perMinute = positiveInt('per-minute', rawPerMinute);
  const perDay = positiveInt('per-day', rawPerDay);
  if ((perMinute === undefined) !== (perDay === undefined)) fail('--per-minute and --per-day go together');
  return perMinute !== undefined && perDay !== undefined ? { perMinute, perDay } : undefined;
}

/** The command line, or the usage (exit 2) for an unknown option; the usage alone (exit 0) for --help. */
function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        plan: { type: 'string' },
        scopes: { type: 'string' },
        'per-minute': { type: 'string' },
        'per-day': { type: 'string' },
        'expires-at': { type: 'string' },
        'overlap-seconds': { type: 'string' },
        id: { type: 'string' },
        account: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const { positionals, values } = parseCommandLine();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const command = positionals[0];
if (!COMMANDS.includes(command ?? '')) fail('Unknown or missing command');

const database = await resolveDatabaseUrl(process.env, () => undefined);
process.env.DATABASE_URL = database.url;
const context = await NestFactory.createApplicationContext(KeysCliModule, { logger: ['error', 'warn'] });
try {
  const keys = context.get(ApiKeysService);
  if (command === 'create') {
    if (!values.name) fail('--name is required');
    const accountId = accountOf(values.account, false);
    if (accountId === undefined && !isPlanName(values.plan)) {
      fail('--plan must be one of free, pro, business, enterprise (or --account gives the plan)');
    }
    if (values.plan !== undefined && !isPlanName(values.plan)) {
      fail('--plan must be one of free, pro, business, enterprise');
    }
    const { key, secret } = await keys.create(
      {
        name: values.name,
        plan: values.plan,
        accountId,
        scopes: scopesOf(values.scopes ?? 'read'),
        limits: limitsOf(values['per-minute'], values['per-day']) ?? null,
        expiresAt: expiry(values['expires-at'], false),
      },
      CLI,
    );
    const expires = key.expiresAt ? `; expires ${key.expiresAt.toISOString()}` : '';
    console.log(
      `Created API key ${key.id} (${key.plan}${inAccount(key.account?.id)}; scopes ${key.scopes.join(',')}${expires}). It is shown only now:\n${secret}`,
    );
  } else if (command === 'update') {
    const id = positiveInt('id', values.id) ?? fail('--id is required');
    if (values.plan !== undefined && !isPlanName(values.plan)) {
      fail('--plan must be one of free, pro, business, enterprise');
    }
    const changes = {
      plan: values.plan,
      accountId: accountOf(values.account, true),
      scopes: values.scopes === undefined ? undefined : scopesOf(values.scopes),
      limits: limitsOf(values['per-minute'], values['per-day']),
      expiresAt: expiry(values['expires-at'], true),
    };
    if (Object.values(changes).every((value) => value === undefined)) {
      fail('update needs at least one of --plan, --account, --scopes, --per-minute with --per-day, --expires-at');
    }
    const key = await keys.update(id, changes, CLI);
    const expires = key.expiresAt ? `expires ${key.expiresAt.toISOString()}` : 'no expiry';
    console.log(
      `Updated API key ${key.id} (${key.plan}${inAccount(key.account?.id)}; scopes ${key.scopes.join(',')}; ${expires})`,
    );
  } else if (command === 'roll') {
    const id = positiveInt('id', values.id) ?? fail('--id is required');
    const overlap = nonNegativeInt('overlap-seconds', values['overlap-seconds']);
    const { secret, previousKeyExpiresAt } = await keys.roll(id, overlap, CLI);
    console.log(
      `Rolled API key ${id}; its previous secret works until ${previousKeyExpiresAt.toISOString()}. ` +
        `The new secret is shown only now:\n${secret}`,
    );
  } else if (command === 'list') {
    let afterId: number | null = null;
    for (;;) {
      const page = await keys.list({ limit: 100, afterId });
      for (const k of page.items) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        const account = k.account ? `account ${k.account.id}` : '-';
        console.log(`${k.id}\t${k.prefix}…\t${k.plan}\t${account}\t${k.scopes.join(',')}\t${state}\t${k.name}`);
      }
      if (!page.hasMore) break;
      afterId = page.items.at(-1)?.id ?? null;
    }
  } else {
    const id = positiveInt('id', values.id) ?? fail('--id is required');
    await keys.revoke(id, CLI);
    console.log(`Revoked API key ${id}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await context.close();
  await database.stop();
}
