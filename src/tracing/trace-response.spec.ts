import { INVALID_SPAN_CONTEXT, TraceFlags } from '@opentelemetry/api';
import { traceResponse } from './trace-response.js';

describe('traceResponse', () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const spanId = 'b9c7c989f97918e1';

  it('formats version 00, the trace id, the span id and the flags as two hex digits', () => {
    expect(traceResponse({ traceId, spanId, traceFlags: TraceFlags.SAMPLED })).toBe(`00-${traceId}-${spanId}-01`);
    expect(traceResponse({ traceId, spanId, traceFlags: TraceFlags.NONE })).toBe(`00-${traceId}-${spanId}-00`);
  });

  it('gives nothing without a valid span (tracing off)', () => {
    expect(traceResponse(undefined)).toBeUndefined();
    expect(traceResponse(INVALID_SPAN_CONTEXT)).toBeUndefined();
    expect(traceResponse({ traceId: 'zz', spanId, traceFlags: TraceFlags.SAMPLED })).toBeUndefined();
  });
});
