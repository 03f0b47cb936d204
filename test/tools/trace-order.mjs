#!/usr/bin/env node
// Prints the trace of one POST /store/orders, and of the webhook delivery it caused, as text
// (span trees with durations), from a real run: the built service (dist/petstore.cjs) on
// DATABASE_URL (re-created: give it a scratch database), tracing on (OTLP/HTTP JSON to a
// receiver in this process), a webhook endpoint in this process subscribed to order.placed.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/petstore_trace node test/tools/trace-order.mjs
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startOtlpReceiver, traceTree } from '../support/otlp-receiver.mjs';
import { recreateDatabase, startUntilReady } from '../support/spawn-service.mjs';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL (a scratch database: it is re-created) is required');
await recreateDatabase(databaseUrl);
const otlp = await startOtlpReceiver();
const hook = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
await new Promise((done) => hook.listen(0, '127.0.0.1', done));
const key = `psk_trace_${randomBytes(16).toString('hex')}`;
const service = await startUntilReady({
  env: {
    NODE_OPTIONS: undefined,
    DATABASE_URL: databaseUrl,
    WEBHOOKS_SECRET_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_ADMIN_KEY: key,
    LOG_LEVEL: 'warn',
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOKS_ALLOWED_PORTS: 'any',
    WEBHOOKS_POLL_INTERVAL_MS: '100',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  },
});
try {
  const call = (method, path, body, headers = {}) =>
    globalThis.fetch(`${service.base}${path}`, {
      method,
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  await call('POST', '/webhooks', { url: `http://127.0.0.1:${hook.address().port}/orders`, events: ['order.placed'] });
  // A first order (and its delivery) warms the key cache and the connections, as a running service has them.
  await call('POST', '/store/orders', { petId: 1, quantity: 1 });
  const delivered = (span) =>
    span.name === 'webhook.delivery' && span.attributes['petstore.webhook.outcome'] === 'delivered';
  await otlp.waitFor((spans) => spans.some(delivered));
  const traceId = randomBytes(16).toString('hex');
  const res = await call(
    'POST',
    '/store/orders',
    { petId: 1, quantity: 1 },
    { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`, 'Idempotency-Key': `trace-${traceId}` },
  );
  process.stdout.write(`POST /store/orders → ${res.status}, traceresponse ${res.headers.get('traceresponse')}\n\n`);
  const delivery = await otlp.waitFor((spans) =>
    spans.find((span) => delivered(span) && span.links.some((link) => link.traceId === traceId)),
  );
  await sleep(500); // the delivery's last spans
  process.stdout.write(`${traceTree(otlp.spans, traceId)}\n\n`);
  process.stdout.write(`linked from trace ${delivery.traceId}:\n${traceTree(otlp.spans, delivery.traceId)}\n`);
  process.stdout.write(`${JSON.stringify(delivery.attributes)}\n`);
} finally {
  service.child.kill('SIGTERM');
  await service.exited;
  await otlp.close();
  hook.close();
}
