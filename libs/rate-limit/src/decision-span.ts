import { type Span, trace } from '@opentelemetry/api';
import { recallRateLimit } from './request-state.js';

const tracer = trace.getTracer('petstore-api');

/**
 * The rate-limit decision of a traced request as a span (`rate_limit`): where the
 * counters are (`memory` in this process, `redis` shared), and the outcome
 * (`allowed`, `limited`, `banned`; `unavailable` when the storage could not say;
 * `unverified` when the key could not be checked). Undefined, at the cost of one
 * call, when the request is not traced (or tracing is off).
 */
export function startDecisionSpan(store: 'memory' | 'redis'): Span | undefined {
  if (!trace.getActiveSpan()?.isRecording()) return undefined;
  return tracer.startSpan('rate_limit', { attributes: { 'petstore.rate_limit.store': store } });
}

/** Ends `span` with the outcome the middleware left on the request. */
export function endDecisionSpan(span: Span, req: object, refused: boolean): void {
  const state = recallRateLimit(req);
  const outcome = state ? (state.decision?.outcome ?? 'unavailable') : 'unverified';
  span.setAttributes({ 'petstore.rate_limit.outcome': outcome, 'petstore.rate_limit.refused': refused });
  span.end();
}
