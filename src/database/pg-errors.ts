import { QueryFailedError } from 'typeorm';

/** SQLSTATEs the adapters translate into domain errors. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
/** Raised instead of 23503 by `ON DELETE RESTRICT` foreign keys. */
export const PG_RESTRICT_VIOLATION = '23001';

/** The violated constraint when `error` is a PostgreSQL error with one of `sqlstates`, else null. */
export function violatedConstraint(error: unknown, ...sqlstates: string[]): string | null {
  if (!(error instanceof QueryFailedError)) return null;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code !== undefined && sqlstates.includes(driverError.code) ? (driverError.constraint ?? '') : null;
}
