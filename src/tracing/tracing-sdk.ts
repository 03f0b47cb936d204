import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { compileTrustProxy } from '../lifecycle/trust-proxy.js';
import { CallerTrustSampler, samplerFromEnv } from './caller-trust-sampler.js';

/** The service's name when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names it. */
export const DEFAULT_SERVICE_NAME = 'petstore-api';

/**
 * OpenTelemetry's Node SDK, started by the entry (src/start.ts) before the service is
 * loaded — the instrumentations hook `pg` and `ioredis` as they are first required,
 * which the bundle leaves to Node (scripts/bundle.mjs) — and only when
 * `tracingRequested`. The SDK reads the standard variables itself: the exporter
 * (`OTEL_TRACES_EXPORTER`, OTLP by default, `OTEL_EXPORTER_OTLP_PROTOCOL`
 * `http/protobuf` or `http/json`, the endpoints and headers), the batch processor
 * (`OTEL_BSP_*`), `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_SERVICE_NAME`, the propagators
 * (W3C trace context and baggage). Here: the service's name and version as defaults,
 * the sampler (`CallerTrustSampler`), traces only (no metrics or logs: Prometheus
 * and the log lines say those), and the instrumentations:
 * - no http instrumentation: the request's span is the service's (`traceRequests`,
 *   mounted first when tracing is on), and the webhook deliveries, the one outgoing
 *   request, make their own, which names the endpoint's id and not its URL (a
 *   receiver's URL may carry its own token);
 * - pg: each statement's text as sent, parameterised — never the values
 *   (`enhancedDatabaseReporting` off) —, and the pool's connects; only inside a
 *   trace (the job queue's polls make none). Each statement carries its span's
 *   `traceparent` in a trailing SQL comment, from which an event written by it
 *   takes its trace context (the `events.trace_parent` column's default);
 * - ioredis: the command's name only, never its arguments (client ids, keys).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): NodeSDK {
  const trustProxy = compileTrustProxy(env.TRUST_PROXY || undefined);
  const sdk = new NodeSDK({
    // Merged under what the environment says (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES win).
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': DEFAULT_SERVICE_NAME, 'service.version': serviceVersion() }),
    ),
    sampler: new CallerTrustSampler(samplerFromEnv(env), (address) => trustProxy(address, 0)),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new PgInstrumentation({
        enhancedDatabaseReporting: false,
        requireParentSpan: true,
        // The statement's trace context as a trailing comment (sqlcommenter): seen in
        // pg_stat_activity, and what an outbox row records (events.trace_parent).
        addSqlCommenterCommentToQueries: true,
      }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  return sdk;
}

/** The version in the service's package.json, found up from the started entry (dist/petstore.cjs, dist/src/start.js). */
function serviceVersion(): string | undefined {
  let dir = dirname(process.argv[1] ?? process.cwd());
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (name === 'petstore-api') return version;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
