import { registerAs } from '@nestjs/config';
import { MAX_QUOTA, type PlanOverrides, TABLE_PLANS } from '../rate-limits/plans-file.js';

/** Plans and rate limits (API.md section 5; docs/rate-limits.md). */
export interface RateLimitConfig {
  /** RATE_LIMIT_ENABLED=false switches the limiter off (benchmarks only). */
  readonly enabled: boolean;
  readonly plansFile: string;
  /** PLANS_FILE was set: a missing file is then an error, not the seed's table. */
  readonly plansFileRequired: boolean;
  /** PLAN_<FREE|PRO|BUSINESS>_PER_<MINUTE|DAY>: win over the file. */
  readonly planOverrides: PlanOverrides;
  /** How often the plans file is checked for changes (ms; 0: only on SIGHUP). */
  readonly plansWatchIntervalMs: number;
  readonly redisUrl: string | undefined;
  readonly redisKeyPrefix: string;
  readonly failOpen: boolean;
  readonly banThresholdMultiplier: number;
  readonly banDurationSeconds: number;
  /** Cap on the in-process counters of addresses without a valid key (least recently used evicted). */
  readonly maxAnonymousClients: number;
}

/** Daily usage per API key (GET /admin/api-keys/{keyId}/usage; docs/rate-limits.md). */
export interface KeyUsageConfig {
  /** How often each instance writes its counts (ms); 0: only at shutdown. */
  readonly flushIntervalMs: number;
  /** Days of usage kept, today included (at least {@link MIN_USAGE_RETENTION_DAYS}). */
  readonly retentionDays: number;
}

export const MIN_USAGE_RETENTION_DAYS = 90;

/** The audit log of admin changes (GET /admin/audit-log; docs/api-keys.md). */
export interface AuditConfig {
  /** AUDIT_RETENTION_DAYS: entries older than this many days are swept. */
  readonly retentionDays: number;
}

/** Webhooks and the event feed (docs/webhooks.md). Durations in ms. */
export interface WebhooksConfig {
  /** WEBHOOKS_ALLOW_HTTP=true: `http://` endpoint URLs are accepted (development, tests). */
  readonly allowHttp: boolean;
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS=true: loopback/private/link-local targets are accepted (tests only). */
  readonly allowPrivateTargets: boolean;
  /** WEBHOOKS_ALLOWED_PORTS: ports a target may name; unset: 443 (and 80 with http); `any`: every port (tests only). */
  readonly allowedPorts: readonly number[] | 'any';
  /** WEBHOOKS_CA_FILE: PEM certificates trusted besides Node's default roots (a private or test CA). */
  readonly caFile: string | undefined;
  /** WEBHOOKS_SECRET_KEY: base64 of 32 bytes encrypting the signing secrets; unset: a key file in DATA_DIR. */
  readonly secretKey: Buffer | undefined;
  /** WEBHOOKS_SECRET_OVERLAP_MS: how long a rotated-out signing secret still signs beside the new one (0: not at all). */
  readonly secretOverlapMs: number;
  /** WEBHOOKS_DISPATCHER=false: this instance sends nothing (another one does). */
  readonly dispatcher: boolean;
  readonly pollIntervalMs: number;
  /** WEBHOOKS_CONCURRENCY: deliveries this instance sends at once (its pg-boss workers). */
  readonly concurrency: number;
  /** WEBHOOKS_ENDPOINT_CONCURRENCY: deliveries one endpoint receives at once, across all instances. */
  readonly endpointConcurrency: number;
  /** One deadline per attempt: resolution, connection, TLS and the answer (at most {@link MAX_WEBHOOK_TIMEOUT_MS}). */
  readonly timeoutMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly retryForMs: number;
  readonly disableAfterMs: number;
  /** EVENTS_RETENTION_DAYS: events older than this are swept (deliveries with them). */
  readonly eventsRetentionDays: number;
}

/** A delivery attempt never takes longer than this, whatever WEBHOOKS_TIMEOUT_MS says. */
export const MAX_WEBHOOK_TIMEOUT_MS = 30_000;

/** pino's levels, plus `silent` (no logs at all). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Typed, validated configuration (API.md section 8). Read once at start-up. */
export interface AppConfig {
  readonly port: number;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly seedDemoData: boolean;
  readonly bootstrapAdminKey: string | undefined;
  readonly bootstrapAdminLimits: { readonly perMinute: number; readonly perDay: number };
  readonly petsGetByIdDeprecatedAt: Date;
  readonly petsGetByIdSunset: Date;
  readonly trustProxy: string | undefined;
  readonly corsOrigins: readonly string[];
  readonly rateLimit: RateLimitConfig;
  readonly keyUsage: KeyUsageConfig;
  readonly audit: AuditConfig;
  readonly logLevel: LogLevel;
  /** Set: /metrics is served on this port without auth, and not on the main port. */
  readonly metricsPort: number | undefined;
  /** How long in-flight requests may finish after SIGTERM/SIGINT before their connections are cut. */
  readonly shutdownGraceMs: number;
  readonly webhooks: WebhooksConfig;
}

export class ConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

function parseDate(env: Env, name: string, fallback: string): Date {
  const raw = env[name] || fallback;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw new ConfigError(`${name} must be an ISO 8601 date-time, got '${raw}'`);
  return date;
}

function parsePort(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`${name} must be a port number, got '${raw}'`);
  return port;
}

function parseOptionalPort(env: Env, name: string): number | undefined {
  return env[name] === undefined || env[name] === '' ? undefined : parsePort(env, name, 0);
}

function parseLogLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((l) => l === raw);
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${env.LOG_LEVEL}'`);
  return level;
}

function parsePositiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ConfigError(`${name} must be a positive integer, got '${raw}'`);
  return value;
}

function parseBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got '${env[name]}'`);
}

function parseNonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

function parsePlanOverrides(env: Env): PlanOverrides {
  const overrides: Record<string, { perMinute?: number; perDay?: number }> = {};
  for (const plan of TABLE_PLANS) {
    for (const [field, suffix] of [
      ['perMinute', 'PER_MINUTE'],
      ['perDay', 'PER_DAY'],
    ] as const) {
      const name = `PLAN_${plan.toUpperCase()}_${suffix}`;
      if (env[name] === undefined || env[name] === '') continue;
      const value = parsePositiveInt(env, name, 1);
      if (value > MAX_QUOTA) throw new ConfigError(`${name} must be at most ${MAX_QUOTA}, got '${env[name]}'`);
      (overrides[plan] ??= {})[field] = value;
    }
  }
  return overrides;
}

function loadRateLimitConfig(env: Env): RateLimitConfig {
  return {
    enabled: parseBoolean(env, 'RATE_LIMIT_ENABLED', true),
    plansFile: env.PLANS_FILE || 'config/plans.yaml',
    plansFileRequired: Boolean(env.PLANS_FILE),
    planOverrides: parsePlanOverrides(env),
    plansWatchIntervalMs: parseNonNegativeInt(env, 'PLANS_WATCH_INTERVAL_MS', 1_000),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.RATE_LIMIT_REDIS_PREFIX || 'petstore:rl:',
    failOpen: parseBoolean(env, 'RATE_LIMIT_FAIL_OPEN', true),
    banThresholdMultiplier: parsePositiveInt(env, 'BAN_THRESHOLD_MULTIPLIER', 3),
    banDurationSeconds: parsePositiveInt(env, 'BAN_DURATION_SECONDS', 900),
    maxAnonymousClients: parsePositiveInt(env, 'RATE_LIMIT_MAX_ANONYMOUS_CLIENTS', 10_000),
  };
}

function loadKeyUsageConfig(env: Env): KeyUsageConfig {
  const retentionDays = parsePositiveInt(env, 'USAGE_RETENTION_DAYS', 400);
  if (retentionDays < MIN_USAGE_RETENTION_DAYS) {
    throw new ConfigError(`USAGE_RETENTION_DAYS must be at least ${MIN_USAGE_RETENTION_DAYS}, got '${retentionDays}'`);
  }
  return { flushIntervalMs: parseNonNegativeInt(env, 'USAGE_FLUSH_INTERVAL_MS', 10_000), retentionDays };
}

function loadAuditConfig(env: Env): AuditConfig {
  return { retentionDays: parsePositiveInt(env, 'AUDIT_RETENTION_DAYS', 400) };
}

function parseSecretKey(env: Env): Buffer | undefined {
  const raw = env.WEBHOOKS_SECRET_KEY;
  if (raw === undefined || raw === '') return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== raw.trim().replace(/=+$/, ''))
    throw new ConfigError('WEBHOOKS_SECRET_KEY must be the base64 of 32 random bytes (openssl rand -base64 32)');
  return key;
}

function parseAllowedPorts(env: Env, allowHttp: boolean): readonly number[] | 'any' {
  const raw = env.WEBHOOKS_ALLOWED_PORTS?.trim();
  if (raw === undefined || raw === '') return allowHttp ? [443, 80] : [443];
  if (raw.toLowerCase() === 'any') return 'any';
  return raw.split(',').map((item) => {
    const port = Number(item.trim());
    if (item.trim() === '' || !Number.isInteger(port) || port < 1 || port > 65535)
      throw new ConfigError(`WEBHOOKS_ALLOWED_PORTS must be comma-separated port numbers or 'any', got '${raw}'`);
    return port;
  });
}

function parseWebhookTimeout(env: Env): number {
  const timeoutMs = parsePositiveInt(env, 'WEBHOOKS_TIMEOUT_MS', 5_000);
  if (timeoutMs > MAX_WEBHOOK_TIMEOUT_MS)
    throw new ConfigError(`WEBHOOKS_TIMEOUT_MS must be at most ${MAX_WEBHOOK_TIMEOUT_MS} (30 s), got '${timeoutMs}'`);
  return timeoutMs;
}

function loadWebhooksConfig(env: Env): WebhooksConfig {
  const hour = 3_600_000;
  const allowHttp = parseBoolean(env, 'WEBHOOKS_ALLOW_HTTP', false);
  const config: WebhooksConfig = {
    allowHttp,
    allowPrivateTargets: parseBoolean(env, 'WEBHOOKS_ALLOW_PRIVATE_TARGETS', false),
    allowedPorts: parseAllowedPorts(env, allowHttp),
    caFile: env.WEBHOOKS_CA_FILE || undefined,
    secretKey: parseSecretKey(env),
    secretOverlapMs: parseNonNegativeInt(env, 'WEBHOOKS_SECRET_OVERLAP_MS', 24 * hour),
    dispatcher: parseBoolean(env, 'WEBHOOKS_DISPATCHER', true),
    pollIntervalMs: parsePositiveInt(env, 'WEBHOOKS_POLL_INTERVAL_MS', 1_000),
    concurrency: parsePositiveInt(env, 'WEBHOOKS_CONCURRENCY', 8),
    endpointConcurrency: parsePositiveInt(env, 'WEBHOOKS_ENDPOINT_CONCURRENCY', 1),
    timeoutMs: parseWebhookTimeout(env),
    retryBaseMs: parsePositiveInt(env, 'WEBHOOKS_RETRY_BASE_MS', 30_000),
    retryMaxMs: parsePositiveInt(env, 'WEBHOOKS_RETRY_MAX_MS', 6 * hour),
    retryForMs: parsePositiveInt(env, 'WEBHOOKS_RETRY_FOR_MS', 24 * hour),
    disableAfterMs: parsePositiveInt(env, 'WEBHOOKS_DISABLE_AFTER_MS', 24 * hour),
    eventsRetentionDays: parsePositiveInt(env, 'EVENTS_RETENTION_DAYS', 7),
  };
  if (config.retryMaxMs < config.retryBaseMs)
    throw new ConfigError('WEBHOOKS_RETRY_MAX_MS must not be below WEBHOOKS_RETRY_BASE_MS');
  return config;
}

/** Builds the configuration from the environment; throws `ConfigError` naming the bad variable. */
export function loadAppConfig(env: Env = process.env): AppConfig {
  const bootstrapAdminKey = env.BOOTSTRAP_ADMIN_KEY || undefined;
  if (bootstrapAdminKey !== undefined && bootstrapAdminKey.length < 32) {
    throw new ConfigError('BOOTSTRAP_ADMIN_KEY must be at least 32 characters long');
  }
  const deprecatedAt = parseDate(env, 'PETS_GET_BY_ID_DEPRECATED_AT', '2026-11-01T00:00:00Z');
  const sunset = parseDate(env, 'PETS_GET_BY_ID_SUNSET', '2027-06-30T00:00:00Z');
  if (sunset.getTime() < deprecatedAt.getTime()) {
    throw new ConfigError('PETS_GET_BY_ID_SUNSET must not be before PETS_GET_BY_ID_DEPRECATED_AT');
  }
  const bootstrapAdminLimits = {
    perMinute: parsePositiveInt(env, 'BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE', 100_000),
    perDay: parsePositiveInt(env, 'BOOTSTRAP_ADMIN_LIMIT_PER_DAY', 10_000_000),
  };
  if (bootstrapAdminLimits.perDay < bootstrapAdminLimits.perMinute) {
    throw new ConfigError('BOOTSTRAP_ADMIN_LIMIT_PER_DAY must not be below BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE');
  }
  const port = parsePort(env, 'PORT', 3000);
  const metricsPort = parseOptionalPort(env, 'METRICS_PORT');
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (both are ${port})`);
  }
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || './data',
    seedDemoData: parseBoolean(env, 'SEED_DEMO_DATA', true),
    bootstrapAdminKey,
    bootstrapAdminLimits,
    petsGetByIdDeprecatedAt: deprecatedAt,
    petsGetByIdSunset: sunset,
    trustProxy: env.TRUST_PROXY || undefined,
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o.length > 0),
    rateLimit: loadRateLimitConfig(env),
    keyUsage: loadKeyUsageConfig(env),
    audit: loadAuditConfig(env),
    logLevel: parseLogLevel(env),
    metricsPort,
    shutdownGraceMs: parseNonNegativeInt(env, 'SHUTDOWN_GRACE_MS', 10_000),
    webhooks: loadWebhooksConfig(env),
  };
}

export const appConfig = registerAs('app', () => loadAppConfig());
