export { AllExceptionsFilter } from './all-exceptions.filter.js';
export { ApiError, ValidationFailedError } from './api-error.js';
export { isPoolWaitTimeout, OverloadedError, OVERLOADED_RETRY_AFTER_SECONDS } from './overloaded-error.js';
export { DomainError, STATUS_BY_KIND, type ErrorKind } from './domain-error.js';
export { declaresBody } from './declares-body.js';
export { ErrorBody } from './error-body.js';
export { isDependencyUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './unavailable-error.js';
export { type AppRoute, discoverRoutes, RouteCatalog, templatePattern } from './route-catalog.js';
export { describeErrors, type DocumentedError, errorBodyOf, errorExamples, statusOfError } from './documented-error.js';
