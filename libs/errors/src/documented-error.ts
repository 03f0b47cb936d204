import { ApiError } from './api-error.js';
import { type DomainError, STATUS_BY_KIND } from './domain-error.js';
import type { ErrorBody } from './error-body.js';

/**
 * A failure an operation documents: when it happens, and a sample of the error the
 * service raises then (so the document's example is the service's own message).
 */
export type DocumentedError = readonly [when: string, sample: DomainError | ApiError];

/** The status the global filter answers a domain or edge error with. */
export function statusOfError(error: DomainError | ApiError): number {
  return error instanceof ApiError ? error.status : STATUS_BY_KIND[error.kind];
}

/** The Error body the service answers a sample error with. */
export function errorBodyOf(error: DomainError | ApiError): ErrorBody {
  return { code: error.code, message: error.message, status: statusOfError(error) };
}

/** OpenAPI `examples` of one response: one per code, keyed by code, with the situation as summary. */
export function errorExamples(
  cases: readonly DocumentedError[],
): Record<string, { readonly summary: string; readonly value: ErrorBody }> {
  return Object.fromEntries(
    cases.map(([when, sample]) => [sample.code, { summary: when, value: errorBodyOf(sample) }]),
  );
}

/** A response description that names every code: `when (CODE); when (CODE)`. */
export function describeErrors(cases: readonly DocumentedError[]): string {
  return cases.map(([when, sample]) => `${when} (\`${sample.code}\`)`).join('; ');
}
