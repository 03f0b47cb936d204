/**
 * A failure raised by the HTTP edge itself (guards, pipes, middleware) where the
 * status is the point: authentication, validation, media type, rate limits.
 * Optional headers (e.g. `Retry-After`, `Allow`) are sent with the Error body.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 `VALIDATION_FAILED` with a message that names every offending field. */
export class ValidationFailedError extends ApiError {
  constructor(readonly problems: readonly string[]) {
    super(400, 'VALIDATION_FAILED', `Invalid request: ${problems.join('; ')}`);
  }
}
