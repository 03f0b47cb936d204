import { ApiError } from './api-error.js';

/**
 * 409 `RESOURCE_STILL_REFERENCED`: a deletion the database refused because rows of
 * another table (any module's) still reference the resource. An adapter that knows
 * the referencing table answers with a code of its own (`PET_HAS_ORDERS`); every
 * other such refusal gets this one rather than a 500.
 */
export class StillReferencedError extends ApiError {
  constructor() {
    super(
      409,
      'RESOURCE_STILL_REFERENCED',
      'The resource is still referenced by other records; remove or change those first',
    );
    this.name = 'StillReferencedError';
  }
}

// SQLSTATEs of PostgreSQL's foreign-key refusals: `ON DELETE RESTRICT` raises 23001, other actions 23503.
const FOREIGN_KEY_VIOLATION = '23503';
const RESTRICT_VIOLATION = '23001';
/** A DELETE (TypeORM's and hand-written): a foreign-key refusal of one can only mean "still referenced". */
const DELETE_STATEMENT = /^\s*DELETE\b/i;

/**
 * Whether `error` is PostgreSQL refusing a deletion because other rows reference
 * the row: SQLSTATE 23001, or 23503 raised by a DELETE statement (TypeORM's
 * `QueryFailedError` carries the statement in `query` and pg's error in
 * `driverError`). 23503 from an INSERT or UPDATE is a reference to a missing row:
 * the adapter's to name (e.g. 422 `CATEGORY_NOT_FOUND`).
 */
export function isStillReferencedRefusal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { query, driverError } = error as { query?: unknown; driverError?: unknown };
  const code = sqlstateOf(driverError) ?? sqlstateOf(error);
  if (code === RESTRICT_VIOLATION) return true;
  return code === FOREIGN_KEY_VIOLATION && typeof query === 'string' && DELETE_STATEMENT.test(query);
}

function sqlstateOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
