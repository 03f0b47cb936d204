import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, recreateDatabase, type ServiceProcess, spawnService, waitUntilReady } from './spawn-service.mjs';

/**
 * The built service as real processes on one scratch database of the test run's
 * PostgreSQL server (the embedded one of `npm test`, or DATABASE_URL's), with
 * webhooks allowed to reach a receiver on 127.0.0.1 and short retry delays.
 */
export class WebhookServices {
  readonly adminKey = `psk_webhooks_${randomBytes(16).toString('hex')}`;
  readonly databaseUrl: string;
  private readonly secretKey = randomBytes(32).toString('base64');
  private readonly dir = mkdtempSync(join(tmpdir(), 'petstore-webhooks-'));
  private readonly started: ServiceProcess[] = [];

  constructor(name: string) {
    const server = process.env.DATABASE_URL;
    if (!server) throw new Error('DATABASE_URL is not set (the e2e global setup sets it)');
    const url = new URL(server);
    url.pathname = `/${name}_${randomBytes(4).toString('hex')}`;
    this.databaseUrl = url.toString();
    chmodSync(this.dir, 0o755);
  }

  async createDatabase(): Promise<void> {
    await recreateDatabase(this.databaseUrl);
  }

  /** Starts an instance named `name`; `env` adds to (or overrides) the settings above. */
  async start(name: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = spawnService({
      name,
      port: await freePort(),
      env: {
        NODE_OPTIONS: undefined,
        DATABASE_URL: this.databaseUrl,
        DATA_DIR: join(this.dir, name),
        BOOTSTRAP_ADMIN_KEY: this.adminKey,
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
        REDIS_URL: undefined,
        RATE_LIMIT_ENABLED: 'false',
        WEBHOOKS_ALLOW_HTTP: 'true',
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOKS_ALLOWED_PORTS: 'any',
        WEBHOOKS_SECRET_KEY: this.secretKey,
        WEBHOOKS_POLL_INTERVAL_MS: '50',
        WEBHOOKS_RETRY_BASE_MS: '200',
        WEBHOOKS_RETRY_MAX_MS: '1000',
        ...env,
      },
    });
    this.started.push(service);
    await waitUntilReady(service, async () => (await fetch(`${service.base}/health/ready`)).status === 200, {
      attempts: 240,
      intervalMs: 250,
    });
    return service;
  }

  /** Runs `sql` on the scratch database. */
  async query<Row>(sql: string, values: unknown[] = []): Promise<Row[]> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as Row[];
    } finally {
      await client.end();
    }
  }

  /** A request to `service` with the admin key (or `key`); JSON in and out. */
  async call(
    service: ServiceProcess,
    method: string,
    path: string,
    body?: unknown,
    key: string = this.adminKey,
  ): Promise<{ status: number; body: any }> {
    const res = await fetch(`${service.base}${path}`, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async stopAll(): Promise<void> {
    for (const service of this.started) {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGTERM');
        await service.exited;
      }
    }
    const url = new URL(this.databaseUrl);
    const name = url.pathname.slice(1);
    url.pathname = '/postgres';
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Counts by event id: how many distinct events arrived, how many twice or more, which never. */
export function tally(eventIds: readonly number[], receivedMessageIds: readonly string[]) {
  const seen = new Map<string, number>();
  for (const id of receivedMessageIds) seen.set(id, (seen.get(id) ?? 0) + 1);
  const lost = eventIds.filter((id) => !seen.has(`evt_${id}`));
  return {
    events: eventIds.length,
    deliveries: receivedMessageIds.length,
    distinct: seen.size,
    duplicates: receivedMessageIds.length - seen.size,
    losses: lost.length,
  };
}
