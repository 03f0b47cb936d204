import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiResponse, type HeadersObject } from '@nestjs/swagger';
import { describeErrors, type DocumentedError, ErrorBody, errorExamples, statusOfError } from '@petstore/errors';

/**
 * Documents the operation-specific failures, each as `[when, sample error]`: one
 * response per status with the Error schema, a description naming every code and
 * one example per code (the sample's own message). The statuses every operation
 * shares (400, 401, 403, 413, 415, 429, 500, 503) are added to the document
 * centrally, see `openapi/shared-responses.ts`; `openapi/error-codes.ts` types each
 * response's `code` from its examples.
 */
export const ApiErrors = (...cases: readonly DocumentedError[]): MethodDecorator => ApiErrorsWithHeaders({}, ...cases);

/** {@link ApiErrors} with response headers of the operation's own (e.g. deprecation headers). */
export function ApiErrorsWithHeaders(headers: HeadersObject, ...cases: readonly DocumentedError[]): MethodDecorator {
  const byStatus = new Map<number, DocumentedError[]>();
  for (const documented of cases) {
    const status = statusOfError(documented[1]);
    byStatus.set(status, [...(byStatus.get(status) ?? []), documented]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, group]) =>
      ApiResponse({
        status,
        description: describeErrors(group),
        type: ErrorBody,
        examples: errorExamples(group),
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
      }),
    ),
  );
}

/** Marks an operation that is not yet stable (`x-stability`). */
export const Stability = (level: 'experimental' | 'beta'): MethodDecorator => ApiExtension('x-stability', level);

/**
 * `x-stability` on a schema property, spread into `@ApiProperty` options (which do not
 * type extensions): a field that may still change on an otherwise stable schema.
 */
export const BETA_FIELD = { 'x-stability': 'beta' } as unknown as { readonly description?: string };
