import { type ApiResponseOptions, getSchemaPath } from '@nestjs/swagger';
import { ErrorBody } from '@petstore/errors';

/**
 * An error response with one named example per case, taken from the real
 * messages, so a reader sees them rather than the Error schema's generic example.
 */
export function errorExamples(
  status: number,
  description: string,
  examples: Readonly<Record<string, { readonly code: string; readonly message: string }>>,
): ApiResponseOptions {
  const values = Object.entries(examples).map(([name, { code, message }]) => [
    name,
    { value: { code, message, status } },
  ]);
  return {
    status,
    description,
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ErrorBody) }, examples: Object.fromEntries(values) },
    },
  };
}
