import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;
interface Operation extends Json {
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  security?: unknown[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const RATE_LIMIT_HEADERS: Record<string, Json> = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window that binds most (fewest remaining; on a tie the shorter window)',
    schema: { type: 'integer', format: 'int32' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests remaining in that window',
    schema: { type: 'integer', format: 'int32' },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time in seconds at which that window resets',
    schema: { type: 'integer', format: 'int64' },
  },
};
const RATE_LIMIT_REFS = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

function errorResponse(description: string, extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...RATE_LIMIT_REFS, ...extraHeaders },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** Failures every operation of a kind can produce, documented once as components. */
const SHARED_RESPONSES: Record<string, Json> = {
  BadRequest: errorResponse(
    'Invalid parameters or body (`VALIDATION_FAILED`, naming every offending field) or malformed JSON (`MALFORMED_JSON`)',
  ),
  Unauthorized: errorResponse('No API key (`UNAUTHENTICATED`), or an unknown or revoked one (`INVALID_API_KEY`)'),
  Forbidden: errorResponse("The API key lacks the operation's scope (`INSUFFICIENT_SCOPE`)"),
  PayloadTooLarge: errorResponse('The body exceeds 16 KiB (`PAYLOAD_TOO_LARGE`)'),
  UnsupportedMediaType: errorResponse('The body is not `application/json` (`UNSUPPORTED_MEDIA_TYPE`)'),
  TooManyRequests: errorResponse(
    'Rate limit exceeded (`RATE_LIMIT_EXCEEDED`) or key banned (`API_KEY_BANNED`); wait `Retry-After` seconds',
    {
      'Retry-After': { $ref: '#/components/headers/Retry-After' },
    },
  ),
  InternalError: errorResponse('Unexpected error (`INTERNAL_ERROR`); details are logged under the `X-Request-Id`'),
  ServiceUnavailable: errorResponse(
    'The database or another required dependency is down (`SERVICE_UNAVAILABLE`); retry later',
  ),
};

const ref = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

/**
 * Completes every operation with the statuses all operations share, and every
 * response with the rate-limit headers, so controllers document only what is
 * particular to them.
 */
export function addSharedResponses(document: OpenAPIObject): void {
  const components = (document.components ??= {}) as Json;
  components.headers = {
    ...RATE_LIMIT_HEADERS,
    'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', format: 'int32' } },
  };
  components.responses = { ...SHARED_RESPONSES };

  for (const pathItem of Object.values(document.paths) as Record<string, Operation | undefined>[]) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      typePathIds(operation);
      const responses = operation.responses;
      for (const response of Object.values(responses)) {
        if (!('$ref' in response)) response.headers = { ...RATE_LIMIT_REFS, ...(response.headers as Json | undefined) };
      }
      const shared: Array<[string, string]> = [];
      if (operation.parameters?.length || operation.requestBody) shared.push(['400', 'BadRequest']);
      if (operation.security?.length) shared.push(['401', 'Unauthorized'], ['403', 'Forbidden']);
      if (operation.requestBody) shared.push(['413', 'PayloadTooLarge'], ['415', 'UnsupportedMediaType']);
      shared.push(['429', 'TooManyRequests'], ['500', 'InternalError'], ['503', 'ServiceUnavailable']);
      for (const [status, name] of shared) responses[status] ??= ref(name);
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}

/** Path ids are positive int64 (`PositiveIdPipe`); Nest would document them as strings. */
function typePathIds(operation: Operation): void {
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path' && typeof parameter.name === 'string' && parameter.name.endsWith('Id')) {
      parameter.schema = { type: 'integer', format: 'int64', minimum: 1 };
      parameter.description ??= `Identifier (positive 64-bit integer)`;
    }
  }
}
