import { isSpanContextValid, type SpanContext } from '@opentelemetry/api';

export const TRACE_RESPONSE_HEADER = 'traceresponse';

/**
 * The `traceresponse` header of a response (W3C Trace Context Level 2): version 00,
 * the trace id, the id of the span that served the request and its flags
 * (`01`: sampled). Undefined without a valid span (tracing off).
 */
export function traceResponse(span: SpanContext | undefined): string | undefined {
  if (!span || !isSpanContextValid(span)) return undefined;
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${span.traceId}-${span.spanId}-${flags}`;
}
