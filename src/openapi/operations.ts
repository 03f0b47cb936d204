import type { OpenAPIObject } from '@nestjs/swagger';
import { errorBodyOf } from '@petstore/errors';
import { OperationSunsetError } from '../pets/index.js';
import { isJson, type Json, operationsOf } from './json.js';

export interface OperationFacts {
  /** When GET /pets/{petId} stops working (`x-sunset`). */
  readonly getPetByIdSunset: Date;
}

/**
 * Operation-level facts that hold for groups of operations, set in one place
 * rather than on every handler: path ids are positive int64, everything under
 * /admin is beta, paged lists link to their next page, and the deprecated
 * GET /pets/{petId} carries its sunset date.
 */
export function refineOperations(document: OpenAPIObject, facts: OperationFacts): void {
  for (const { path, method, operation } of operationsOf(document.paths)) {
    const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isJson) : [];
    if (parameters.length === 0) delete operation.parameters;
    for (const parameter of parameters) typePathId(parameter);
    if (path.startsWith('/admin/')) operation['x-stability'] ??= 'beta';
    if (parameters.some((p) => p.in === 'query' && p.name === 'cursor')) documentNextLink(operation);
    if (path === '/pets/{petId}' && method === 'get') deprecateGetPetById(operation, facts.getPetByIdSunset);
  }
}

const PATH_ID_NOUNS: Readonly<Record<string, string>> = { keyId: 'API key' };

/** Path ids are positive int64 (`PositiveIdPipe`); Nest would document them as strings. */
function typePathId(parameter: Json): void {
  if (parameter.in !== 'path' || typeof parameter.name !== 'string' || !parameter.name.endsWith('Id')) return;
  parameter.schema = { type: 'integer', format: 'int64', minimum: 1 };
  parameter.description ??= `ID of the ${PATH_ID_NOUNS[parameter.name] ?? parameter.name.slice(0, -2)} (a positive 64-bit integer)`;
  parameter.example ??= 1;
}

function documentNextLink(operation: Json): void {
  const responses = isJson(operation.responses) ? operation.responses : {};
  const ok = responses['200'];
  if (!isJson(ok)) return;
  ok.headers = { ...(isJson(ok.headers) ? ok.headers : {}), Link: { $ref: '#/components/headers/NextPageLink' } };
}

/**
 * The configured sunset date, where a reader looks: `x-sunset`, the description
 * (Swagger UI shows both) and the 410 example, which is the service's own message.
 */
function deprecateGetPetById(operation: Json, sunset: Date): void {
  operation.deprecated = true;
  operation['x-sunset'] = sunset.toISOString();
  operation.description = `${String(operation.description)}\n\nSunset: ${sunset.toISOString()} (\`x-sunset\`).`;
  const gone = isJson(operation.responses) ? operation.responses['410'] : undefined;
  const media = isJson(gone) && isJson(gone.content) ? gone.content['application/json'] : undefined;
  if (isJson(media) && isJson(media.examples) && isJson(media.examples.OPERATION_SUNSET)) {
    const sample = new OperationSunsetError('GET /pets/{petId}', 'GET /pets?id=42', sunset);
    media.examples.OPERATION_SUNSET.value = errorBodyOf(sample);
  }
}
