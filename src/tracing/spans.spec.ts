import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { withTraceComment } from './spans.js';

const SQL = 'INSERT INTO events (type) VALUES ($1)';

describe('withTraceComment', () => {
  it('ends the statement with the recorded span’s traceparent, the form events.trace_parent reads', () => {
    const span = new TracerProvider().getTracer('test').startSpan('unit');
    const { traceId, spanId } = span.spanContext();
    const commented = withTraceComment(SQL, span);
    expect(commented).toBe(`${SQL} /*traceparent='00-${traceId}-${spanId}-01'*/`);
    // The migration's default: substring(current_query() from '/\*traceparent=''(00-…)''')
    expect(/\/\*traceparent='(00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2})'/.exec(commented)?.[1]).toBe(
      `00-${traceId}-${spanId}-01`,
    );
    span.end();
  });

  it('leaves the statement as it is outside a recorded span', () => {
    const unsampled = trace.wrapSpanContext({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.NONE,
    });
    expect(withTraceComment(SQL, unsampled)).toBe(SQL);
    expect(withTraceComment(SQL, undefined)).toBe(SQL);
    expect(withTraceComment(SQL)).toBe(SQL); // no active span (no context manager in a unit test)
    expect(trace.getSpan(ROOT_CONTEXT)).toBeUndefined();
  });
});
