import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver.mjs';
import { ENTRY, type ServiceProcess } from './support/spawn-service.mjs';
import { WebhookServices } from './support/webhook-services.js';

/** A caller's trace context: a fresh trace id and span id, sampled (`01`) or not (`00`). */
function callerContext(flags: '00' | '01' = '01') {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${flags}` };
}

const TRACE_RESPONSE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

/** Every span of `traceId`, once its server span (the request's, under `parentSpanId`) has arrived. */
function traceOf(receiver: OtlpReceiver, traceId: string, parentSpanId: string): Promise<ReceivedSpan[]> {
  return receiver.waitFor((spans) => {
    const mine = spans.filter((span) => span.traceId === traceId);
    return mine.some((span) => span.parentSpanId === parentSpanId) ? mine : undefined;
  });
}

/** Whether `span` descends from the span `ancestorId` within `spans`. */
function descends(spans: readonly ReceivedSpan[], span: ReceivedSpan, ancestorId: string): boolean {
  for (let parent = span.parentSpanId; parent;) {
    if (parent === ancestorId) return true;
    parent = spans.find((s) => s.spanId === parent)?.parentSpanId;
  }
  return false;
}

/** A webhook receiver that keeps the headers of every POST it gets. */
async function headerRecorder(): Promise<{ server: Server; url: string; received: IncomingHttpHeaders[] }> {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.headers);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/**
 * Tracing of the real built process (`node dist/petstore.cjs`: the bundle, whose pg and
 * ioredis the instrumentations must see), exporting OTLP/HTTP JSON to a local receiver.
 */
describe('tracing (e2e, the built service with OpenTelemetry)', () => {
  const services = new WebhookServices('petstore_tracing');
  const otlp = (receiver: OtlpReceiver, env: Record<string, string> = {}) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    ...env,
  });
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-tracing-'));

  beforeAll(async () => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\``);
    await services.createDatabase();
  });
  afterAll(async () => {
    await services.stopAll();
    rmSync(scratch, { recursive: true, force: true });
  });

  describe('tracing on, behind a trusted proxy (TRUST_PROXY=loopback)', () => {
    let receiver: OtlpReceiver;
    let hooks: Awaited<ReturnType<typeof headerRecorder>>;
    let service: ServiceProcess;
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${service.base}${path}`, {
        method,
        headers: {
          'X-API-Key': services.adminKey,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    /** Values the flow sends that no span may hold: the key, the webhook's secret, SQL parameters. */
    const secrets: string[] = [services.adminKey];

    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      hooks = await headerRecorder();
      service = await services.start(
        'traced',
        otlp(receiver, { TRUST_PROXY: 'loopback', RATE_LIMIT_ENABLED: 'true', LOG_LEVEL: 'info' }),
      );
    });
    afterAll(async () => {
      await receiver.close();
      await new Promise((done) => hooks.server.close(done));
    });

    it('continues the caller’s trace: one trace, the request’s span under the caller’s, the seams under it', async () => {
      const caller = callerContext();
      const requestId = `trace-test-${randomUUID()}`;
      const res = await call('GET', '/pets?limit=5', undefined, {
        traceparent: caller.traceparent,
        'X-Request-Id': requestId,
      });
      expect(res.status).toBe(200);
      const [, traceId, spanId, flags] = TRACE_RESPONSE.exec(res.headers.get('traceresponse') ?? '') ?? [];
      expect({ traceId, flags }).toEqual({ traceId: caller.traceId, flags: '01' });

      const spans = await traceOf(receiver, caller.traceId, caller.spanId);
      const roots = spans.filter((span) => span.parentSpanId === caller.spanId);
      expect(roots).toHaveLength(1);
      const [server] = roots;
      expect(server.spanId).toBe(spanId);
      expect(server.name).toBe('GET /pets');
      expect(server.kind).toBe(2);
      expect(server.attributes).toMatchObject({
        'http.route': '/pets',
        'http.response.status_code': 200,
        'petstore.request_id': requestId,
        'petstore.api_key.id': expect.any(Number),
      });
      expect(server.status.code).toBe(0); // not an error
      expect(server.resource).toMatchObject({ 'service.name': 'petstore-api', 'service.version': expect.any(String) });
      await receiver.waitFor((all) => all.filter((s) => s.traceId === caller.traceId).length >= 4);
      const all = receiver.spans.filter((span) => span.traceId === caller.traceId);
      for (const span of all.filter((s) => s !== server)) expect(descends(all, span, server.spanId)).toBe(true);
      const names = all.map((span) => span.name);
      expect(names).toEqual(expect.arrayContaining(['authenticate', 'rate_limit']));
      expect(all.find((s) => s.name === 'rate_limit')?.attributes).toMatchObject({
        'petstore.rate_limit.store': 'memory',
        'petstore.rate_limit.outcome': 'allowed',
      });
      expect(all.find((s) => s.name === 'authenticate')?.attributes).toMatchObject({
        'petstore.auth.lookup': expect.stringMatching(/^(cache|store)$/),
        'petstore.auth.result': 'key',
      });
      const statements = all.filter((span) => typeof span.attributes['db.query.text'] === 'string');
      expect(statements.length).toBeGreaterThan(0);
      // The request log line carries the ids, in the line's own field style.
      const line = service
        .output()
        .split('\n')
        .find((text) => text.includes(`"reqId":"${requestId}"`));
      expect(line).toContain(`"traceId":"${caller.traceId}","spanId":"${server.spanId}"`);
    });

    it('leaves the probes and /metrics untraced, and follows a trusted caller’s “not sampled”', async () => {
      const before = receiver.spans.length;
      const probe = await fetch(`${service.base}/health/ready`, {
        headers: { traceparent: callerContext().traceparent },
      });
      expect(probe.status).toBe(200);
      expect(probe.headers.get('traceresponse')).toBeNull();
      expect((await call('GET', '/metrics')).headers.get('traceresponse')).toBeNull();
      const unsampled = callerContext('00');
      const res = await call('GET', '/pets?limit=1', undefined, { traceparent: unsampled.traceparent });
      expect(res.headers.get('traceresponse')).toMatch(new RegExp(`^00-${unsampled.traceId}-[0-9a-f]{16}-00$`));
      // A traced request after them: once it is in, nothing of those three came.
      const later = callerContext();
      await call('GET', '/categories', undefined, { traceparent: later.traceparent });
      await traceOf(receiver, later.traceId, later.spanId);
      const since = receiver.spans.slice(before);
      expect(since.some((span) => span.traceId === unsampled.traceId)).toBe(false);
      expect(since.every((span) => span.traceId === later.traceId)).toBe(true);
    });

    it('links a webhook delivery to the trace of the change that made it (a category, an order) and sends the receiver a traceparent', async () => {
      const hook = await call('POST', '/webhooks', {
        url: `${hooks.url}/orders`,
        events: ['order.placed', 'category.created'],
      });
      expect(hook.status).toBe(201);
      secrets.push(((await hook.json()) as { secret: string }).secret);
      const categoryName = `Tracing-${randomUUID()}`;
      const petName = `Tracer-${randomUUID()}`;
      secrets.push(categoryName, petName);
      // An event the outbox subscriber appends (the event store's statement) keeps its trace too.
      const creation = callerContext();
      const category = (await (
        await call('POST', '/categories', { name: categoryName }, { traceparent: creation.traceparent })
      ).json()) as { id: number };
      const created = await receiver.waitFor((spans) =>
        spans.find(
          (span) => span.name === 'webhook.delivery' && span.links.some((link) => link.traceId === creation.traceId),
        ),
      );
      expect(created.traceId).not.toBe(creation.traceId);
      const pet = (await (await call('POST', '/pets', { name: petName, categoryId: category.id })).json()) as {
        id: number;
      };
      expect((await call('PUT', `/store/inventory/${pet.id}`, { quantity: 5 })).status).toBe(200);

      const idempotencyKey = `idem-${randomUUID()}`;
      secrets.push(idempotencyKey);
      const caller = callerContext();
      const placed = await call(
        'POST',
        '/store/orders',
        { petId: pet.id, quantity: 2 },
        { traceparent: caller.traceparent, 'Idempotency-Key': idempotencyKey },
      );
      expect(placed.status).toBe(201);
      const order = (await placed.json()) as { id: number };
      const orderTrace = await traceOf(receiver, caller.traceId, caller.spanId);
      expect(orderTrace.find((s) => s.parentSpanId === caller.spanId)?.name).toBe('POST /store/orders');

      const delivery = await receiver.waitFor((spans) =>
        spans.find(
          (span) => span.name === 'webhook.delivery' && span.links.some((link) => link.traceId === caller.traceId),
        ),
      );
      // Linked to a span of the order's trace (the statement that wrote the event), in a trace of its own.
      const linked = delivery.links.find((link) => link.traceId === caller.traceId);
      await receiver.waitFor((spans) => spans.some((span) => span.spanId === linked?.spanId));
      expect(delivery.traceId).not.toBe(caller.traceId);
      expect(delivery.attributes).toMatchObject({
        'petstore.webhook.id': expect.any(Number),
        'petstore.webhook.delivery.id': expect.any(Number),
        'petstore.webhook.attempt': 1,
        'petstore.webhook.outcome': 'delivered',
        'http.response.status_code': 204,
      });
      // The receiver continues the delivery's trace under its POST.
      const post = await receiver.waitFor((spans) =>
        spans.find(
          (span) => span.traceId === delivery.traceId && span.parentSpanId === delivery.spanId && span.name === 'POST',
        ),
      );
      expect(post.attributes).toMatchObject({ 'http.response.status_code': 204 });
      expect(post.attributes).not.toHaveProperty('url.full');
      expect(hooks.received.map((headers) => headers.traceparent)).toContain(
        `00-${delivery.traceId}-${post.spanId}-01`,
      );

      // A unit of work: the wait for a turn, the pool's connection and the commit under it.
      const cancel = callerContext();
      expect(
        (await call('DELETE', `/store/orders/${order.id}`, undefined, { traceparent: cancel.traceparent })).status,
      ).toBe(204);
      const unit = await receiver.waitFor((spans) =>
        spans.find((span) => span.traceId === cancel.traceId && span.name === 'unit_of_work'),
      );
      const cancelTrace = await receiver.waitFor((spans) => {
        const mine = spans.filter((span) => span.traceId === cancel.traceId);
        return mine.some((span) => span.name.startsWith('pg.query:COMMIT')) ? mine : undefined;
      });
      const under = (name: string) =>
        cancelTrace.filter((span) => span.name.startsWith(name) && descends(cancelTrace, span, unit.spanId));
      expect(under('transaction.turn')).toHaveLength(1);
      expect(under('pg-pool.connect').length).toBeGreaterThan(0);
      expect(under('pg.query:COMMIT')).toHaveLength(1);
      expect(unit.attributes['petstore.unit_of_work.outcome']).toBe('committed');
    });

    it('puts no API key, secret or SQL parameter value in any span of the flow', async () => {
      expect(receiver.spans.length).toBeGreaterThan(20);
      const texts = receiver.spans.flatMap((span) => [
        span.name,
        ...Object.values(span.attributes).map((value) => JSON.stringify(value)),
        span.status.message ?? '',
      ]);
      for (const secret of secrets) {
        expect(texts.filter((text) => text.includes(secret))).toEqual([]);
      }
      // Statements as sent: parameterised text, never the values.
      const statements = receiver.spans.map((span) => span.attributes['db.query.text']).filter(Boolean);
      expect(statements.some((text) => /\$1/.test(String(text)))).toBe(true);
    });
  });

  it('decides by its own sampler for a caller that is not a trusted proxy, honours OTEL_BSP_SCHEDULE_DELAY and the resource variables, and flushes at shutdown', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const service = await services.start(
        'untrusted',
        otlp(receiver, {
          OTEL_BSP_SCHEDULE_DELAY: '60000',
          OTEL_SERVICE_NAME: 'petstore-flush-test',
          OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=e2e',
        }),
      );
      // The caller says "not sampled"; the service's sampler (parentbased_always_on: always, at a root) decides.
      const caller = callerContext('00');
      const res = await fetch(`${service.base}/categories`, {
        headers: { 'X-API-Key': services.adminKey, traceparent: caller.traceparent },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('traceresponse')).toMatch(new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`));
      await new Promise((done) => setTimeout(done, 500));
      expect(receiver.spans).toEqual([]); // the batch waits for its 60 s schedule
      service.child.kill('SIGTERM');
      expect(await service.exited).toEqual({ code: 0, signal: null });
      const server = receiver.spans.find((span) => span.parentSpanId === caller.spanId);
      expect(server?.name).toBe('GET /categories');
      expect(server?.resource).toMatchObject({
        'service.name': 'petstore-flush-test',
        'deployment.environment.name': 'e2e',
      });
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['no OTEL_* variable set', {}],
    ['OTEL_SDK_DISABLED=true beside an endpoint', { OTEL_SDK_DISABLED: 'true' }],
  ])('with tracing off (%s): no SDK loaded, no span, no traceresponse', async (name, env) => {
    const receiver = await startOtlpReceiver();
    const loaded = join(scratch, `${randomUUID()}.json`);
    try {
      const service = await services.start(`off-${randomUUID().slice(0, 8)}`, {
        ...(Object.keys(env).length > 0 ? otlp(receiver, env) : {}),
        NODE_OPTIONS: `--import ${pathToFileURL(resolve('test/support/loaded-modules.mjs')).href}`,
        LOADED_MODULES_FILE: loaded,
      });
      const res = await fetch(`${service.base}/pets?limit=1`, {
        headers: { 'X-API-Key': services.adminKey, traceparent: callerContext().traceparent },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('traceresponse')).toBeNull();
      service.child.kill('SIGTERM');
      expect(await service.exited).toEqual({ code: 0, signal: null });
      const files = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
      expect(files.some((file) => file.endsWith('petstore-main.cjs'))).toBe(true); // the preload saw the service
      expect(
        files.filter((file) => /petstore-tracing|@opentelemetry\/(sdk|instrumentation|exporter)/.test(file)),
      ).toEqual([]);
      expect(receiver.stats.requests).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});
