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
