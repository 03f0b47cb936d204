import {
  type Attributes,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { traceResponse } from './trace-response.js';

/**
 * The service's own spans, at the seams no instrumentation sees (authentication, the
 * rate-limit decision, the unit of work, the webhook delivery), through
 * `@opentelemetry/api` only: with tracing off (no SDK registered) its tracer and
 * propagator do nothing, at the cost of a call.
 */
export const tracer: Tracer = trace.getTracer('petstore-api');

/**
 * A span under the current one when that one is recorded (a sampled request), else
 * undefined: a request that is not traced builds no span and no attributes for it.
 */
export function childSpan(name: string, attributes?: () => Attributes): Span | undefined {
  if (!trace.getActiveSpan()?.isRecording()) return undefined;
  return tracer.startSpan(name, attributes ? { attributes: attributes() } : undefined);
}

/** A link to the span a W3C `traceparent` names (as the configured propagator reads it); none without one. */
export function linksTo(traceParent: string | null | undefined): Link[] {
  if (!traceParent) return [];
  const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }));
  return linked && trace.isSpanContextValid(linked) ? [{ context: linked }] : [];
}

/** `headers` with the current trace context added (`traceparent`, `tracestate`), as the configured propagator writes it. */
export function withTraceContext(headers: Readonly<Record<string, string>>): Record<string, string> {
  const carrier: Record<string, string> = { ...headers };
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * `sql` ending with the W3C `traceparent` of `span` (by default the active one) as a
 * SQL comment, sqlcommenter's form `/*traceparent='00-…'*\/`, when that span is
 * recorded (a sampled request); else `sql` as it is. The statements that write outbox
 * rows send it, and only those: the `events.trace_parent` column's default reads it
 * back from the statement (`current_query()`), so an event keeps the trace of the
 * change that made it, while every other statement keeps one text, sampled or not.
 */
export function withTraceComment(sql: string, span: Span | undefined = trace.getActiveSpan()): string {
  // `00-<trace id>-<span id>-<flags>`: a traceresponse and a traceparent have one form.
  const parent = span?.isRecording() ? traceResponse(span.spanContext()) : undefined;
  return parent === undefined ? sql : `${sql} /*traceparent='${parent}'*/`;
}
