export { AllExceptionsFilter } from './all-exceptions.filter.js';
export { ApiError, ValidationFailedError } from './api-error.js';
export { DomainError, STATUS_BY_KIND, type ErrorKind } from './domain-error.js';
export { ErrorBody } from './error-body.js';
export { isDependencyUnavailable } from './unavailable-error.js';
