import { ConfigError, loadAppConfig } from './app.config.js';

const KEY_32 = 'k'.repeat(32);

function configError(env: Record<string, string>): ConfigError {
  try {
    loadAppConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadAppConfig', () => {
  describe('defaults (API.md section 8)', () => {
    const config = loadAppConfig({});

    it('serves on port 3000', () => expect(config.port).toBe(3000));
    it('uses the embedded PostgreSQL (no DATABASE_URL)', () => expect(config.databaseUrl).toBeUndefined());
    it('keeps data in ./data', () => expect(config.dataDir).toBe('./data'));
    it('has no bootstrap admin key', () => expect(config.bootstrapAdminKey).toBeUndefined());
    it('gives the bootstrap key 100,000 per minute and 10,000,000 per day', () =>
      expect(config.bootstrapAdminLimits).toEqual({ perMinute: 100_000, perDay: 10_000_000 }));
    it('sunsets GET /pets/{petId} on 2027-06-30T00:00:00Z', () =>
      expect(config.petsGetByIdSunset.toISOString()).toBe('2027-06-30T00:00:00.000Z'));
    it('deprecates it before the sunset', () =>
      expect(config.petsGetByIdDeprecatedAt.getTime()).toBeLessThan(config.petsGetByIdSunset.getTime()));
    it('does not trust proxies', () => expect(config.trustProxy).toBeUndefined());
    it('has no CORS origins', () => expect(config.corsOrigins).toEqual([]));
    it('seeds the demo catalogue', () => expect(config.seedDemoData).toBe(true));
    it('logs at info', () => expect(config.logLevel).toBe('info'));
    it('serves /metrics on the main port (no METRICS_PORT)', () => expect(config.metricsPort).toBeUndefined());
    it('gives in-flight requests 10 s after SIGTERM', () => expect(config.shutdownGraceMs).toBe(10_000));
    it('writes key usage every 10 s and keeps 400 days of it', () =>
      expect(config.keyUsage).toEqual({ flushIntervalMs: 10_000, retentionDays: 400 }));
    it('keeps 400 days of the audit log', () => expect(config.audit).toEqual({ retentionDays: 400 }));
    it('sends webhooks to public https targets only, retrying 30 s doubling to 6 h for 24 h, keeping events 7 days', () =>
      expect(config.webhooks).toMatchObject({
        allowHttp: false,
        allowPrivateTargets: false,
        allowedPorts: [443],
        caFile: undefined,
        secretKey: undefined,
        secretOverlapMs: 86_400_000,
        dispatcher: true,
        timeoutMs: 5_000,
        retryBaseMs: 30_000,
        retryMaxMs: 21_600_000,
        retryForMs: 86_400_000,
        disableAfterMs: 86_400_000,
        eventsRetentionDays: 7,
      }));
  });

  it.each([
    ['WEBHOOKS_SECRET_KEY', 'short'],
    ['WEBHOOKS_SECRET_KEY', Buffer.alloc(16).toString('base64')],
    ['WEBHOOKS_ALLOW_HTTP', 'maybe'],
    ['WEBHOOKS_POLL_INTERVAL_MS', '0'],
    ['WEBHOOKS_ALLOWED_PORTS', '443,'],
    ['WEBHOOKS_ALLOWED_PORTS', '0'],
    ['WEBHOOKS_ALLOWED_PORTS', '65536'],
    ['WEBHOOKS_ALLOWED_PORTS', 'https'],
    ['WEBHOOKS_SECRET_OVERLAP_MS', '-1'],
    ['EVENTS_RETENTION_DAYS', '-1'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadAppConfig({ [name]: value })).toThrow(ConfigError);
  });

  it('bounds the delivery deadline at 30 s, with a message naming the variable', () => {
    expect(loadAppConfig({ WEBHOOKS_TIMEOUT_MS: '30000' }).webhooks.timeoutMs).toBe(30_000);
    expect(configError({ WEBHOOKS_TIMEOUT_MS: '30001' }).message).toBe(
      "WEBHOOKS_TIMEOUT_MS must be at most 30000 (30 s), got '30001'",
    );
  });

  it('allows port 80 besides 443 where http is allowed; WEBHOOKS_ALLOWED_PORTS replaces both', () => {
    expect(loadAppConfig({ WEBHOOKS_ALLOW_HTTP: 'true' }).webhooks.allowedPorts).toEqual([443, 80]);
    expect(loadAppConfig({ WEBHOOKS_ALLOWED_PORTS: 'ANY' }).webhooks.allowedPorts).toBe('any');
  });

  it('refuses a retry maximum below the base', () => {
    expect(() => loadAppConfig({ WEBHOOKS_RETRY_BASE_MS: '5000', WEBHOOKS_RETRY_MAX_MS: '1000' })).toThrow(/RETRY_MAX/);
  });

  it('reads every variable', () => {
    const config = loadAppConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/pets',
      DATA_DIR: '/var/lib/pets',
      SEED_DEMO_DATA: 'false',
      BOOTSTRAP_ADMIN_KEY: KEY_32,
      BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE: '50',
      BOOTSTRAP_ADMIN_LIMIT_PER_DAY: '5000',
      PETS_GET_BY_ID_DEPRECATED_AT: '2026-01-01T00:00:00Z',
      PETS_GET_BY_ID_SUNSET: '2026-12-31T00:00:00Z',
      TRUST_PROXY: 'loopback',
      CORS_ORIGINS: ' https://a.example ,https://b.example,, ',
      LOG_LEVEL: 'DEBUG',
      METRICS_PORT: '9464',
      SHUTDOWN_GRACE_MS: '2500',
      USAGE_FLUSH_INTERVAL_MS: '0',
      USAGE_RETENTION_DAYS: '120',
      AUDIT_RETENTION_DAYS: '30',
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_ALLOWED_PORTS: '443, 8443',
      WEBHOOKS_CA_FILE: '/etc/petstore/ca.pem',
      WEBHOOKS_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      WEBHOOKS_SECRET_OVERLAP_MS: '60000',
      WEBHOOKS_DISPATCHER: 'false',
      WEBHOOKS_POLL_INTERVAL_MS: '250',
      WEBHOOKS_CONCURRENCY: '4',
      WEBHOOKS_ENDPOINT_CONCURRENCY: '2',
      WEBHOOKS_TIMEOUT_MS: '3000',
      WEBHOOKS_RETRY_BASE_MS: '1000',
      WEBHOOKS_RETRY_MAX_MS: '60000',
      WEBHOOKS_RETRY_FOR_MS: '600000',
      WEBHOOKS_DISABLE_AFTER_MS: '900000',
      EVENTS_RETENTION_DAYS: '30',
    });
    expect(config).toEqual({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/pets',
      dataDir: '/var/lib/pets',
      seedDemoData: false,
      bootstrapAdminKey: KEY_32,
      bootstrapAdminLimits: { perMinute: 50, perDay: 5000 },
      petsGetByIdDeprecatedAt: new Date('2026-01-01T00:00:00Z'),
      petsGetByIdSunset: new Date('2026-12-31T00:00:00Z'),
      trustProxy: 'loopback',
      corsOrigins: ['https://a.example', 'https://b.example'],
      // Rate-limit settings are covered by test/rate-limit-config.e2e-spec.ts.
      rateLimit: loadAppConfig({}).rateLimit,
      keyUsage: { flushIntervalMs: 0, retentionDays: 120 },
      audit: { retentionDays: 30 },
      logLevel: 'debug',
      metricsPort: 9464,
      shutdownGraceMs: 2500,
      webhooks: {
        allowHttp: true,
        allowPrivateTargets: true,
        allowedPorts: [443, 8443],
        caFile: '/etc/petstore/ca.pem',
        secretKey: Buffer.alloc(32, 7),
        secretOverlapMs: 60_000,
        dispatcher: false,
        pollIntervalMs: 250,
        concurrency: 4,
        endpointConcurrency: 2,
        timeoutMs: 3000,
        retryBaseMs: 1000,
        retryMaxMs: 60_000,
        retryForMs: 600_000,
        disableAfterMs: 900_000,
        eventsRetentionDays: 30,
      },
    });
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts LOG_LEVEL=%s', (level) => {
    expect(loadAppConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it('accepts SHUTDOWN_GRACE_MS=0 (cut connections at once)', () => {
    expect(loadAppConfig({ SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
  });

  it('treats an empty variable as unset, for every variable', () => {
    const names = [
      'PORT',
      'DATABASE_URL',
      'DATA_DIR',
      'SEED_DEMO_DATA',
      'BOOTSTRAP_ADMIN_KEY',
      'BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE',
      'BOOTSTRAP_ADMIN_LIMIT_PER_DAY',
      'PETS_GET_BY_ID_DEPRECATED_AT',
      'PETS_GET_BY_ID_SUNSET',
      'TRUST_PROXY',
      'CORS_ORIGINS',
      'LOG_LEVEL',
      'METRICS_PORT',
      'SHUTDOWN_GRACE_MS',
      'USAGE_FLUSH_INTERVAL_MS',
      'USAGE_RETENTION_DAYS',
      'AUDIT_RETENTION_DAYS',
    ];
    const empty = Object.fromEntries(names.map((name) => [name, '']));
    expect(() => loadAppConfig(empty)).not.toThrow();
    expect(loadAppConfig(empty)).toEqual(loadAppConfig({}));
  });

  it.each(['1', 'true', 'yes', 'on', 'TRUE'])('reads %j as true', (value) => {
    expect(loadAppConfig({ SEED_DEMO_DATA: value }).seedDemoData).toBe(true);
  });

  it.each(['0', 'false', 'no', 'off', 'False'])('reads %j as false', (value) => {
    expect(loadAppConfig({ SEED_DEMO_DATA: value }).seedDemoData).toBe(false);
  });

  describe('bad values stop start-up with a ConfigError naming the variable', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['PORT', '80.5'],
      ['SEED_DEMO_DATA', 'maybe'],
      ['BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE', '0'],
      ['BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE', 'lots'],
      ['BOOTSTRAP_ADMIN_LIMIT_PER_DAY', '-5'],
      ['BOOTSTRAP_ADMIN_LIMIT_PER_DAY', '1.5'],
      ['PETS_GET_BY_ID_SUNSET', 'not-a-date'],
      ['PETS_GET_BY_ID_DEPRECATED_AT', 'yesterday'],
      ['LOG_LEVEL', 'verbose'],
      ['METRICS_PORT', 'nine'],
      ['METRICS_PORT', '65536'],
      ['SHUTDOWN_GRACE_MS', '-1'],
      ['SHUTDOWN_GRACE_MS', '10s'],
      ['USAGE_FLUSH_INTERVAL_MS', '-1'],
      ['USAGE_RETENTION_DAYS', '89'],
      ['USAGE_RETENTION_DAYS', 'forever'],
      ['AUDIT_RETENTION_DAYS', '0'],
      ['AUDIT_RETENTION_DAYS', 'a year'],
    ])('%s=%j', (name, value) => {
      const error = configError({ [name]: value });
      expect(error.message).toContain(name);
      expect(error.message).toContain(value);
    });

    it('a bootstrap per-day limit below the per-minute one', () => {
      const error = configError({ BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE: '500', BOOTSTRAP_ADMIN_LIMIT_PER_DAY: '100' });
      expect(error.message).toContain('BOOTSTRAP_ADMIN_LIMIT_PER_DAY');
    });

    it('BOOTSTRAP_ADMIN_KEY shorter than 32 characters', () => {
      const error = configError({ BOOTSTRAP_ADMIN_KEY: 'k'.repeat(31) });
      expect(error.message).toContain('BOOTSTRAP_ADMIN_KEY');
      expect(error.message).toContain('32');
      expect(error.message).not.toContain('k'.repeat(31)); // a secret stays out of the log
    });

    it('a sunset before the deprecation date', () => {
      const error = configError({
        PETS_GET_BY_ID_DEPRECATED_AT: '2027-01-01T00:00:00Z',
        PETS_GET_BY_ID_SUNSET: '2026-12-31T23:59:59Z',
      });
      expect(error.message).toContain('PETS_GET_BY_ID_SUNSET');
      expect(error.message).toContain('PETS_GET_BY_ID_DEPRECATED_AT');
    });

    it('METRICS_PORT equal to PORT', () => {
      const error = configError({ PORT: '8080', METRICS_PORT: '8080' });
      expect(error.message).toContain('METRICS_PORT');
      expect(error.message).toContain('PORT');
    });

    it('a sunset before the default deprecation date', () => {
      expect(configError({ PETS_GET_BY_ID_SUNSET: '2020-01-01T00:00:00Z' }).message).toContain('PETS_GET_BY_ID_SUNSET');
    });
  });

  it('accepts a BOOTSTRAP_ADMIN_KEY of exactly 32 characters', () => {
    expect(loadAppConfig({ BOOTSTRAP_ADMIN_KEY: KEY_32 }).bootstrapAdminKey).toBe(KEY_32);
  });

  it('accepts a sunset on the deprecation date itself', () => {
    const at = '2027-01-01T00:00:00Z';
    const config = loadAppConfig({ PETS_GET_BY_ID_DEPRECATED_AT: at, PETS_GET_BY_ID_SUNSET: at });
    expect(config.petsGetByIdSunset).toEqual(config.petsGetByIdDeprecatedAt);
  });

  it('accepts port 0 and 65535', () => {
    expect(loadAppConfig({ PORT: '0' }).port).toBe(0);
    expect(loadAppConfig({ PORT: '65535' }).port).toBe(65535);
  });
});
