// A local OTLP/HTTP trace receiver for the tests and tools that run the real service with
// tracing on (OTEL_EXPORTER_OTLP_PROTOCOL=http/json): it accepts POST /v1/traces, answers
// 200 and keeps every span, flattened (ids in hex, attributes as plain values). Also
// accepts http/protobuf bodies, counting their bytes without decoding them (the bench's sink).
// Plain ESM so `node` runs the tools that use it without a build; types in otlp-receiver.d.mts.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** An OTLP/JSON id (hex, as the JSON encoding says; base64 accepted too) as hex. */
function hexId(value) {
  if (typeof value !== 'string' || value === '') return undefined;
  return /^[0-9a-f]+$/i.test(value) && (value.length === 32 || value.length === 16)
    ? value.toLowerCase()
    : Buffer.from(value, 'base64').toString('hex');
}

/** An OTLP AnyValue as a plain value. */
function plain(value) {
  if (!value || typeof value !== 'object') return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('boolValue' in value) return value.boolValue;
  if ('arrayValue' in value) return (value.arrayValue.values ?? []).map(plain);
  if ('kvlistValue' in value) return attributesOf(value.kvlistValue.values);
  if ('bytesValue' in value) return value.bytesValue;
  return undefined;
}

function attributesOf(list = []) {
  return Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));
}

/** The spans of one OTLP/JSON ExportTraceServiceRequest. */
export function spansOf(request) {
  const spans = [];
  for (const { resource, scopeSpans = [] } of request.resourceSpans ?? []) {
    const resourceAttributes = attributesOf(resource?.attributes);
    for (const { scope, spans: list = [] } of scopeSpans) {
      for (const span of list) {
        spans.push({
          traceId: hexId(span.traceId),
          spanId: hexId(span.spanId),
          parentSpanId: hexId(span.parentSpanId),
          name: span.name,
          kind: span.kind,
          startNs: BigInt(span.startTimeUnixNano),
          endNs: BigInt(span.endTimeUnixNano),
          attributes: attributesOf(span.attributes),
          links: (span.links ?? []).map((link) => ({ traceId: hexId(link.traceId), spanId: hexId(link.spanId) })),
          status: { code: span.status?.code ?? 0, message: span.status?.message },
          scope: scope?.name,
          resource: resourceAttributes,
        });
      }
    }
  }
  return spans;
}

/** Starts the receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver() {
  const spans = [];
  const stats = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      stats.requests++;
      stats.bytes += body.length;
      if (req.method === 'POST' && req.url === '/v1/traces' && /json/.test(req.headers['content-type'] ?? '')) {
        spans.push(...spansOf(JSON.parse(body.toString('utf8'))));
      }
      const status = req.method === 'POST' && req.url === '/v1/traces' ? 200 : 404;
      res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    stats,
    /** Waits (up to `timeoutMs`) until `found(spans)` is truthy; returns what it returned. */
    async waitFor(found, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const result = found(spans);
        if (result) return result;
        if (Date.now() > until)
          throw new Error(`the expected spans did not arrive; got: ${spans.map((s) => s.name).join(', ')}`);
        await sleep(50);
      }
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** A trace as text: its spans as a tree (children under their parent, in start order), with durations. */
export function traceTree(spans, traceId) {
  const mine = spans.filter((span) => span.traceId === traceId).sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
  const ids = new Set(mine.map((span) => span.spanId));
  const lines = [];
  const walk = (span, depth) => {
    const ms = Number(span.endNs - span.startNs) / 1e6;
    lines.push(`${'  '.repeat(depth)}${span.name}  ${ms.toFixed(2)} ms`);
    for (const child of mine.filter((s) => s.parentSpanId === span.spanId)) walk(child, depth + 1);
  };
  for (const root of mine.filter((span) => !span.parentSpanId || !ids.has(span.parentSpanId))) walk(root, 0);
  return lines.join('\n');
}
