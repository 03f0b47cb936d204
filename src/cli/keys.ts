import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AuthModule, isScope } from '@petstore/auth';
import { ApiKeyStoreModule, ApiKeysModule, ApiKeysService } from '../api-keys/index.js';
import { SCHEMA } from '../app.schema.js';
import { appConfig } from '../config/app.config.js';
import { DatabaseModule } from '../database/database.module.js';
import { resolveDatabaseUrl } from '../database/database-url.js';
import { isPlanName } from '../rate-limits/plan.js';
import { PlansModule } from '../rate-limits/plans.module.js';

const USAGE = `Usage:
  npm run keys -- create --name <name> --plan <free|pro|business|enterprise> [--scopes read,write,admin] [--per-minute N --per-day N]
  npm run keys -- list
  npm run keys -- revoke --id <keyId>`;

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

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(raw)) fail(`--${name} must be a positive integer`);
  return Number(raw);
}

/** The command line, or the usage (exit 2) for an unknown option; the usage alone (exit 0) for --help. */
function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        plan: { type: 'string' },
        scopes: { type: 'string', default: 'read' },
        'per-minute': { type: 'string' },
        'per-day': { type: 'string' },
        id: { type: 'string' },
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
if (!['create', 'list', 'revoke'].includes(command ?? '')) fail('Unknown or missing command');

const database = await resolveDatabaseUrl(process.env, () => undefined);
process.env.DATABASE_URL = database.url;
const context = await NestFactory.createApplicationContext(KeysCliModule, { logger: ['error', 'warn'] });
try {
  const keys = context.get(ApiKeysService);
  if (command === 'create') {
    if (!values.name) fail('--name is required');
    if (!isPlanName(values.plan)) fail('--plan must be one of free, pro, business, enterprise');
    const scopes = values.scopes.split(',').map((s) => s.trim());
    if (!scopes.every(isScope)) fail('--scopes must be a comma-separated list of read, write, admin');
    const perMinute = positiveInt('per-minute', values['per-minute']);
    const perDay = positiveInt('per-day', values['per-day']);
    const limits = perMinute !== undefined && perDay !== undefined ? { perMinute, perDay } : null;
    if ((perMinute === undefined) !== (perDay === undefined)) fail('--per-minute and --per-day go together');
    const { key, secret } = await keys.create({
      name: values.name,
      plan: values.plan,
      scopes,
      limits,
    });
    console.log(
      `Created API key ${key.id} (${key.plan}; scopes ${key.scopes.join(',')}). It is shown only now:\n${secret}`,
    );
  } else if (command === 'list') {
    let afterId: number | null = null;
    for (;;) {
      const page = await keys.list({ limit: 100, afterId });
      for (const k of page.items) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        console.log(`${k.id}\t${k.prefix}…\t${k.plan}\t${k.scopes.join(',')}\t${state}\t${k.name}`);
      }
      if (!page.hasMore) break;
      afterId = page.items.at(-1)?.id ?? null;
    }
  } else {
    const id = positiveInt('id', values.id) ?? fail('--id is required');
    await keys.revoke(id);
    console.log(`Revoked API key ${id}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await context.close();
  await database.stop();
}
