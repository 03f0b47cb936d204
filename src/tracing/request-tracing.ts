import {
  context,
  propagation,
  ROOT_CONTEXT,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { redactUrl } from '../logging/redaction.js';
import { requestSpanAttributes } from './request-span.js';
import { PEER_ADDRESS, UNTRACED_PATHS } from './server-span.js';
import { tracer } from './spans.js';
import { TRACE_RESPONSE_HEADER, traceResponse } from './trace-response.js';

/** The span context of each request in flight that `traceRequests` saw. */
const requestSpans = new WeakMap<object, SpanContext>();

/** The span context of the request's span (its ids are the log line's `traceId`, `spanId`); none when not traced. */
export function requestSpanContext(req: object): SpanContext | undefined {
  return requestSpans.get(req);
}

/**
 * The request's span (kind server), mounted first when tracing is on: it continues the
 * caller's `traceparent`/`tracestate` (the propagator's), asks the sampler with the
 * peer's address (`CallerTrustSampler` trusts a caller's flag from a `TRUST_PROXY` peer
 * only), answers its ids in `traceresponse`, and — when sampled — runs the rest of the
 * request in its context. An unsampled request runs outside any span: nothing under it
 * is recorded anyway, so the statements it sends carry no trace comment and no
 * instrumentation makes a span for it (most requests, at a low ratio). Once the response is done it
 * takes the route template (and its name from it), status, key id and request id, and
 * the error status on a 5xx. Its path is redacted as the log line's is (a key pasted
 * into a URL never reaches a span). The probes and /metrics make none.
 *
 * Not instrumentation-http: that one binds every listener added to a request and its
 * response to the context and computes a dozen attributes before sampling, a cost every
 * request paid, sampled or not (docs/operations.md, Tracing).
 */
export function traceRequests(): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (UNTRACED_PATHS.test(req.url)) {
      next();
      return;
    }
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, [PEER_ADDRESS]: req.socket.remoteAddress ?? '' },
      },
      parent,
    );
    const ids = span.spanContext();
    requestSpans.set(req, ids);
    const traced = traceResponse(ids);
    if (traced) res.setHeader(TRACE_RESPONSE_HEADER, traced);
    if (!span.isRecording()) {
      next();
      return;
    }
    span.setAttributes({ 'url.path': redactUrl(req.path), 'url.scheme': req.protocol });
    res.once('close', () => {
      const { name, attributes } = requestSpanAttributes(req, res);
      span.setAttributes({ ...attributes, 'http.response.status_code': res.statusCode });
      if (name) span.updateName(name);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
