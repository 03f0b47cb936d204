import type { OpenAPIObject } from '@nestjs/swagger';
import { byKey, isJson, type Json, operationsOf } from './json.js';

const HEADERS: Record<string, Json> = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window that binds most (fewest remaining; on a tie the shorter window)',
    schema: { type: 'integer', format: 'int32', minimum: 0 },
    example: 60,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests remaining in that window',
    schema: { type: 'integer', format: 'int32', minimum: 0 },
    example: 59,
  },
  'X-RateLimit-Reset': {
    description: 'Unix time in seconds at which that window resets',
    schema: { type: 'integer', format: 'int64', minimum: 0 },
    example: 1795262460,
  },
  'X-Request-Id': {
    description:
      'Identifies the request in the service logs: the incoming `X-Request-Id` if well-formed, else a new one',
    schema: { type: 'string', maxLength: 128 },
    example: '3b1f0c9e-6a52-4d0e-9a34-2f4b8f0d7c11',
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', format: 'int32', minimum: 0 },
    example: 30,
  },
  NextPageLink: {
    description: 'Present when more results exist: the same query for the next page, `<…&cursor=…>; rel="next"`',
    schema: { type: 'string' },
    example: '</pets?limit=20&cursor=MjA>; rel="next"',
  },
};

/** Headers every response carries, errors included. */
const EVERY_RESPONSE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'];

const headerRefs = (names: readonly string[]): Json =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

function errorResponse(description: string, example: Json, extraHeaders: readonly string[] = []): Json {
  return {
    description,
    headers: headerRefs([...EVERY_RESPONSE_HEADERS, ...extraHeaders]),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example } },
  };
}

/** Failures every operation of a kind can produce, documented once as components. */
const SHARED_RESPONSES: Record<string, Json> = {
  BadRequest: errorResponse(
    'Invalid parameters or body (`VALIDATION_FAILED`, naming every offending field) or malformed JSON (`MALFORMED_JSON`)',
    {
      code: 'VALIDATION_FAILED',
      message: 'Invalid request: name must be longer than or equal to 1 characters',
      status: 400,
    },
  ),
  Unauthorized: errorResponse('No API key (`UNAUTHENTICATED`), or an unknown or revoked one (`INVALID_API_KEY`)', {
    code: 'UNAUTHENTICATED',
    message: 'Send an API key in the X-API-Key header',
    status: 401,
  }),
  Forbidden: errorResponse("The API key lacks the operation's scope (`INSUFFICIENT_SCOPE`)", {
    code: 'INSUFFICIENT_SCOPE',
    message: "This operation needs an API key with the 'write' scope",
    status: 403,
  }),
  RequestTimeout: errorResponse(
    'The request did not arrive in time: headers within 10 s, the whole request within 30 s (`REQUEST_TIMEOUT`)',
    {
      code: 'REQUEST_TIMEOUT',
      message: 'Request not received in time: the headers must arrive within 10 s, the whole request within 30 s',
      status: 408,
    },
  ),
  RequestHeadersTooLarge: errorResponse('The request line and headers exceed 16 KiB (`REQUEST_HEADERS_TOO_LARGE`)', {
    code: 'REQUEST_HEADERS_TOO_LARGE',
    message: 'The request line and headers exceed 16 KiB',
    status: 431,
  }),
  PayloadTooLarge: errorResponse('The body exceeds 16 KiB (`PAYLOAD_TOO_LARGE`)', {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Request body exceeds the 16 KiB limit',
    status: 413,
  }),
  UnsupportedMediaType: errorResponse('The body is not `application/json` (`UNSUPPORTED_MEDIA_TYPE`)', {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Request body must be application/json',
    status: 415,
  }),
  TooManyRequests: errorResponse(
    'Rate limit exceeded (`RATE_LIMIT_EXCEEDED`) or key banned (`API_KEY_BANNED`); wait `Retry-After` seconds',
    { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', status: 429 },
    ['Retry-After'],
  ),
  InternalError: errorResponse('Unexpected error (`INTERNAL_ERROR`); details are logged under the `X-Request-Id`', {
    code: 'INTERNAL_ERROR',
    message: 'An unexpected error occurred',
    status: 500,
  }),
  ServiceUnavailable: errorResponse(
    'The database or another required dependency is down (`SERVICE_UNAVAILABLE`), or the service is overloaded and ' +
      'shed the request before queuing it long (`OVERLOADED`); retry after `Retry-After` seconds',
    { code: 'SERVICE_UNAVAILABLE', message: 'A required dependency is unavailable; retry shortly', status: 503 },
    ['Retry-After'],
  ),
};

const responseRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

/**
 * Completes every operation with the statuses all operations share, and every
 * response with the headers every response carries, so controllers document
 * only what is particular to them.
 */
export function addSharedResponses(document: OpenAPIObject): void {
  const components = (document.components ??= {}) as Json;
  components.headers = { ...HEADERS };
  components.responses = { ...SHARED_RESPONSES };

  for (const { operation } of operationsOf(document.paths)) {
    const responses: Record<string, unknown> = isJson(operation.responses) ? operation.responses : {};
    for (const response of Object.values(responses)) {
      if (isJson(response) && !('$ref' in response)) {
        response.headers = {
          ...headerRefs(EVERY_RESPONSE_HEADERS),
          ...(isJson(response.headers) ? response.headers : {}),
        };
      }
    }
    const hasParameters = Array.isArray(operation.parameters) && operation.parameters.length > 0;
    const hasBody = operation.requestBody !== undefined;
    const shared: Array<[string, string]> = [];
    if (hasParameters || hasBody) shared.push(['400', 'BadRequest']);
    if (Array.isArray(operation.security) && operation.security.length > 0) {
      shared.push(['401', 'Unauthorized'], ['403', 'Forbidden']);
    }
    if (hasBody) shared.push(['413', 'PayloadTooLarge'], ['415', 'UnsupportedMediaType']);
    // Refused by the HTTP server before routing, whatever the operation (README, Timeouts).
    shared.push(['408', 'RequestTimeout'], ['431', 'RequestHeadersTooLarge']);
    shared.push(['429', 'TooManyRequests'], ['500', 'InternalError'], ['503', 'ServiceUnavailable']);
    for (const [status, name] of shared) responses[status] ??= responseRef(name);
    operation.responses = Object.fromEntries(Object.entries(responses).sort(byKey));
  }
}
