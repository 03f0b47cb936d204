import type { OpenAPIObject } from '@nestjs/swagger';
import { byKey, isJson, type Json, operationsOf } from './json.js';

const ERROR_REF = '#/components/schemas/Error';

/**
 * Codes the router answers for requests that match no operation, so no operation
 * lists them: an unknown path (404) and a known path with another method (405).
 */
const ROUTER_CODES: Readonly<Record<string, readonly number[]>> = {
  ROUTE_NOT_FOUND: [404],
  METHOD_NOT_ALLOWED: [405],
};

/** The `application/json` media type of a response, when it documents an Error. */
function errorMedia(response: unknown): Json | null {
  if (!isJson(response) || !isJson(response.content)) return null;
  const media = response.content['application/json'];
  if (!isJson(media) || !isJson(media.schema) || media.schema.$ref !== ERROR_REF) return null;
  return media;
}

/**
 * Types every error response's `code` by the codes it lists (one example per code,
 * keyed by code): `allOf: [Error, {code: enum}]`, so a generated client sees the
 * union of an operation's codes rather than `string`. The seed's `Error` schema
 * stays as it is. Then collects the catalogue of every code the service answers
 * with, and the statuses it comes with, as the top-level `x-error-codes`.
 */
export function typeErrorCodes(document: OpenAPIObject): void {
  const catalogue = new Map<string, Set<number>>();
  const note = (code: string, status: number): void => {
    catalogue.set(code, (catalogue.get(code) ?? new Set()).add(status));
  };
  const type = (status: number, response: unknown): void => {
    const media = errorMedia(response);
    if (!media || !isJson(media.examples)) return;
    const codes = Object.keys(media.examples).sort();
    for (const code of codes) note(code, status);
    media.schema = {
      allOf: [
        { $ref: ERROR_REF },
        { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: codes } } },
      ],
    };
  };

  const shared = isJson(document.components?.responses) ? (document.components.responses as Json) : {};
  const sharedStatus = new Map<string, number>();
  for (const { operation } of operationsOf(document.paths)) {
    const responses = isJson(operation.responses) ? operation.responses : {};
    for (const [status, response] of Object.entries(responses)) {
      if (Number(status) < 400) continue;
      const ref = isJson(response) && typeof response.$ref === 'string' ? response.$ref : null;
      if (ref) sharedStatus.set(ref.slice(ref.lastIndexOf('/') + 1), Number(status));
      else type(Number(status), response);
    }
  }
  for (const [name, response] of Object.entries(shared)) {
    const status = sharedStatus.get(name);
    if (status !== undefined) type(status, response);
  }
  for (const [code, statuses] of Object.entries(ROUTER_CODES)) for (const status of statuses) note(code, status);

  (document as unknown as Json)['x-error-codes'] = Object.fromEntries(
    [...catalogue]
      .map(([code, statuses]): [string, Json] => [code, { statuses: [...statuses].sort((a, b) => a - b) }])
      .sort(byKey),
  );
}
