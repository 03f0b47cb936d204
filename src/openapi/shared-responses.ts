import type { OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_HEADER } from '@petstore/auth';
import {
  ApiError,
  describeErrors,
  type DocumentedError,
  errorExamples,
  OverloadedError,
  StillReferencedError,
  ValidationFailedError,
} from '@petstore/errors';
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
  traceresponse: {
    description:
      'Present when the service traces (OpenTelemetry): the W3C Trace Context `traceresponse` of the request, ' +
      '`00-<trace id>-<span id>-<flags>` (flags `01`: sampled), continuing the `traceparent` sent, if any',
    schema: { type: 'string', pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
    example: '00-0af7651916cd43dd8448eb211c80319c-b9c7c989f97918e1-01',
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
const EVERY_RESPONSE_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
  'traceresponse',
];

const headerRefs = (names: readonly string[]): Json =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

function errorResponse(cases: readonly DocumentedError[], extraHeaders: readonly string[] = []): Json {
  return {
    description: describeErrors(cases),
    headers: headerRefs([...EVERY_RESPONSE_HEADERS, ...extraHeaders]),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples: errorExamples(cases) } },
  };
}

/** Any deletion: another module's rows may reference what is deleted (its foreign key refuses). */
const STILL_REFERENCED: DocumentedError = [
  'Rows of another resource still reference it (a foreign key refused the deletion)',
  new StillReferencedError(),
];

// The samples carry the messages the service answers with (the guard, the filter, the
// rate limiter, the parser refusals); the document shows them as they are.

/** Failures every operation of a kind can produce, documented once as components. */
const SHARED_RESPONSES: Record<string, Json> = {
  BadRequest: errorResponse([
    [
      'Invalid parameters or body, naming every offending field',
      new ValidationFailedError(['name must be longer than or equal to 1 characters']),
    ],
    ['The body is not valid JSON', new ApiError(400, 'MALFORMED_JSON', 'Request body is not valid JSON')],
  ]),
  Unauthorized: errorResponse([
    ['No API key', new ApiError(401, 'UNAUTHENTICATED', `Send an API key in the ${API_KEY_HEADER} header`)],
    ['An unknown or revoked API key', new ApiError(401, 'INVALID_API_KEY', 'The API key is unknown or revoked')],
    [
      "An API key past its expiresAt, or a rolled key's previous secret after the overlap (beta)",
      new ApiError(401, 'API_KEY_EXPIRED', 'The API key has expired'),
    ],
  ]),
  Forbidden: errorResponse([
    [
      "The API key lacks the operation's scope",
      new ApiError(403, 'INSUFFICIENT_SCOPE', "This operation needs an API key with the 'write' scope"),
    ],
    [
      'The API key is used from an address outside its allowedAddresses (beta)',
      new ApiError(403, 'API_KEY_ADDRESS_NOT_ALLOWED', 'The API key may not be used from this address'),
    ],
  ]),
  RequestTimeout: errorResponse([
    [
      'The request did not arrive in time: headers within 10 s, the whole request within 30 s',
      new ApiError(
        408,
        'REQUEST_TIMEOUT',
        'Request not received in time: the headers must arrive within 10 s, the whole request within 30 s',
      ),
    ],
  ]),
  RequestHeadersTooLarge: errorResponse([
    [
      'The request line and headers exceed 16 KiB',
      new ApiError(431, 'REQUEST_HEADERS_TOO_LARGE', 'The request line and headers exceed 16 KiB'),
    ],
  ]),
  PayloadTooLarge: errorResponse([
    ['The body exceeds 16 KiB', new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body exceeds the 16 KiB limit')],
  ]),
  UnsupportedMediaType: errorResponse([
    [
      'The body is not `application/json`',
      new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json'),
    ],
  ]),
  TooManyRequests: errorResponse(
    [
      [
        'Rate limit exceeded; wait `Retry-After` seconds',
        new ApiError(
          429,
          'RATE_LIMIT_EXCEEDED',
          'Rate limit exceeded: 60 requests per minute for this API key; retry in 42 s',
        ),
      ],
      [
        'The key (or address) is banned for sending on after repeated 429s; wait `Retry-After` seconds',
        new ApiError(
          429,
          'API_KEY_BANNED',
          'Banned for sending on after repeated 429 responses: this API key may send again in 900 s',
        ),
      ],
    ],
    ['Retry-After'],
  ),
  StillReferenced: errorResponse([STILL_REFERENCED]),
  InternalError: errorResponse([
    [
      'Unexpected error; details are logged under the `X-Request-Id`',
      new ApiError(500, 'INTERNAL_ERROR', 'An unexpected error occurred'),
    ],
  ]),
  ServiceUnavailable: errorResponse(
    [
      [
        'The database or another required dependency is down; retry after `Retry-After` seconds',
        new ApiError(503, 'SERVICE_UNAVAILABLE', 'A required dependency is unavailable; retry shortly'),
      ],
      [
        'The service is overloaded and shed the request before queuing it long; retry after `Retry-After` seconds',
        new OverloadedError('12 requests already wait for a database connection'),
      ],
    ],
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

  for (const { method, operation } of operationsOf(document.paths)) {
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
    if (method === 'delete') addStillReferenced(responses);
    operation.responses = Object.fromEntries(Object.entries(responses).sort(byKey));
  }
}

/** A deletion's 409: the shared response, or the operation's own with this case added. */
function addStillReferenced(responses: Record<string, unknown>): void {
  const own = responses['409'];
  if (!isJson(own) || '$ref' in own) {
    responses['409'] ??= responseRef('StillReferenced');
    return;
  }
  const content = isJson(own.content) ? own.content : {};
  const media = isJson(content['application/json']) ? content['application/json'] : {};
  media.examples = { ...(isJson(media.examples) ? media.examples : {}), ...errorExamples([STILL_REFERENCED]) };
  own.description = [own.description, describeErrors([STILL_REFERENCED])].filter(Boolean).join('; ');
}
