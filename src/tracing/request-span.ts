import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Attributes } from '@opentelemetry/api';
import type { Request, Response } from 'express';
import { routeTemplate } from '../shared/http/route-template.js';

/** The attributes of the service's own that a request's span carries (semantic conventions' names where there are). */
export const REQUEST_ATTRIBUTES = {
  route: 'http.route',
  errorType: 'error.type',
  apiKeyId: 'petstore.api_key.id',
  requestId: 'petstore.request_id',
} as const;

/**
 * What the request's span says once its response is done, read from the request as the
 * application left it (Express's `req.route`, the key the authentication found,
 * the request id, `res.locals.errorCode` recorded by the exception filter): the route
 * template (and the span's name with it), the id of the API key — never the key —,
 * the `X-Request-Id`, and on a 5xx the Error code as `error.type` (the span's error
 * status is set by `traceRequests`: 5xx only).
 */
export function requestSpanAttributes(
  request: IncomingMessage,
  response: ServerResponse,
): { name?: string; attributes: Attributes } {
  const req = request as Request & { apiKey?: { id?: unknown }; id?: unknown };
  const res = response as Response;
  const attributes: Attributes = {};
  const route = routeTemplate(req);
  if (route !== undefined) attributes[REQUEST_ATTRIBUTES.route] = route;
  const keyId = req.apiKey?.id;
  if (typeof keyId === 'number') attributes[REQUEST_ATTRIBUTES.apiKeyId] = keyId;
  if (typeof req.id === 'string') attributes[REQUEST_ATTRIBUTES.requestId] = req.id;
  const code: unknown = res.locals?.errorCode;
  if (res.statusCode >= 500 && typeof code === 'string') attributes[REQUEST_ATTRIBUTES.errorType] = code;
  return { name: route === undefined ? undefined : `${req.method} ${route}`, attributes };
}
