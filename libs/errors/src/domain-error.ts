/**
 * What went wrong, in terms the domain understands. The global filter maps each
 * kind to one HTTP status, so domain and application code never speak HTTP.
 */
export type ErrorKind = 'validation' | 'not_found' | 'conflict' | 'unprocessable' | 'gone' | 'unavailable';

/**
 * Base class of every expected failure raised by domain or application code.
 * Subclasses fix a stable machine-readable `code` (API.md section 7) and a `kind`.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly kind: ErrorKind;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** HTTP status for each error kind. */
export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  gone: 410,
  unprocessable: 422,
  unavailable: 503,
};
