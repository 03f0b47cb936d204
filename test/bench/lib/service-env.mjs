// The environment the benches start the service with: one place for what every bench
// needs on the machine's PostgreSQL and for tracing's variables.
import { randomBytes } from 'node:crypto';

/** A key for BOOTSTRAP_ADMIN_KEY, as `npm run keys` would print one. */
export const benchKey = () => `psk_bench_${randomBytes(20).toString('hex')}`;

/** A WEBHOOKS_SECRET_KEY (32 random bytes, base64): required with a DATABASE_URL. */
export const webhooksSecret = () => randomBytes(32).toString('base64');

/**
 * The service on `databaseUrl` with the bootstrap admin `key`, whose limits never bind (a
 * bench measures the service, not its quotas), `secret` as its WEBHOOKS_SECRET_KEY (every
 * build started on one database must share it) and `logLevel`.
 */
export function serviceEnv({ databaseUrl, key, secret = webhooksSecret(), logLevel = 'info' }) {
  return {
    DATABASE_URL: databaseUrl,
    BOOTSTRAP_ADMIN_KEY: key,
    BOOTSTRAP_ADMIN_LIMIT_PER_MINUTE: '1000000000',
    BOOTSTRAP_ADMIN_LIMIT_PER_DAY: '2000000000',
    WEBHOOKS_SECRET_KEY: secret,
    LOG_LEVEL: logLevel,
  };
}

/** Tracing on, exporting OTLP (http/protobuf, the default) to `endpoint`, `ratio` of the traces sampled. */
export function tracingEnv(endpoint, ratio) {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: String(ratio),
  };
}
