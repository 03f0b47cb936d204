import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
  Optional,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from './api-error.js';
import { DomainError, STATUS_BY_KIND } from './domain-error.js';
import { isPoolWaitTimeout, OverloadedError } from './overloaded-error.js';
import { RouteCatalog } from './route-catalog.js';
import type { ErrorBody } from './error-body.js';
import { answerThenLinger, bodyStillArriving } from './lingering-close.js';
import { isStillReferencedRefusal, StillReferencedError } from './still-referenced.js';
import { isDependencyUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './unavailable-error.js';

interface Rendered extends ErrorBody {
  headers?: Readonly<Record<string, string>>;
}

/** A logger bound to one request (pino-http's `req.log`), when the application logs requests with pino. */
interface RequestLogger {
  error(fields: object, message: string): void;
}

function requestLoggerOf(req: Request): RequestLogger | null {
  const log: unknown = (req as unknown as { log?: unknown }).log;
  const usable = typeof log === 'object' && log !== null && typeof (log as RequestLogger).error === 'function';
  return usable ? (log as RequestLogger) : null;
}

const GENERIC_CODES: Readonly<Record<number, string>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'INSUFFICIENT_SCOPE',
  404: 'ROUTE_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT_EXCEEDED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Every 503 says when to try again: a dependency that is down usually recovers within seconds. */
const UNAVAILABLE: Rendered = {
  status: 503,
  code: 'SERVICE_UNAVAILABLE',
  message: 'A required dependency is unavailable; retry shortly',
  headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
};

/** What a request that waited its bound for a database connection is told: the database is up, the service busy. */
const POOL_BUSY = new OverloadedError('no database connection became free within the wait bound');

const GENERIC_MESSAGES: Readonly<Record<number, string>> = {
  413: 'Request body exceeds the 16 KiB limit',
  415: 'Request body must be application/json',
  429: 'Rate limit exceeded',
};

/**
 * The one place where failures become HTTP responses. Every error the service can
 * produce — domain errors, edge errors, Nest/Express/body-parser exceptions,
 * unknown routes, and unexpected bugs — leaves as the Error shape; internals only
 * go to the log, tagged with the request id the client also receives.
 *
 * 5xx failures are logged with their stack through the request's own logger
 * (`req.log`, bound to the request id) when there is one, else through Nest's
 * `Logger` with the id in the text. The code answered is left in
 * `res.locals.errorCode` for the request log line and metrics. A request refused
 * while its body is still arriving is answered with `answerThenLinger`.
 *
 * With the application's `RouteCatalog` (a provider where the filter is
 * registered), an unmatched request on a path that routes serve with other
 * methods is 405 with `Allow`; without one, every unmatched request is 404.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(@Optional() private readonly routes?: RouteCatalog) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const body = this.render(exception, req);
    if (res.locals) res.locals.errorCode = body.code;
    if (body.status >= 500) this.report(exception, body, req, res);
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(body.headers ?? {})) res.setHeader(name, value);
    const answer = { code: body.code, message: body.message, status: body.status };
    if (req.method !== 'HEAD' && bodyStillArriving(req)) {
      // Refused before its body arrived (413, 415, 429…): answered at once, the connection closed after the body.
      res.status(body.status).type('application/json');
      answerThenLinger(req, res, JSON.stringify(answer));
      return;
    }
    res.status(body.status).json(answer);
  }

  private report(exception: unknown, body: Rendered, req: Request, res: Response): void {
    const summary = `${req.method} ${req.originalUrl} -> ${body.status} ${body.code}`;
    const requestLog = requestLoggerOf(req);
    if (requestLog) {
      requestLog.error({ err: exception, code: body.code, status: body.status }, summary);
      return;
    }
    const id = (req as { id?: unknown }).id ?? res.getHeader('X-Request-Id');
    const requestId = typeof id === 'string' || typeof id === 'number' ? String(id) : JSON.stringify(id);
    const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    this.logger.error(`${summary} [request ${requestId}]: ${detail}`);
  }

  private render(exception: unknown, req: Request): Rendered {
    if (exception instanceof DomainError) {
      const status = STATUS_BY_KIND[exception.kind];
      const rendered = { status, code: exception.code, message: exception.message };
      return status === 503 ? { ...rendered, headers: UNAVAILABLE.headers } : rendered;
    }
    if (exception instanceof ApiError) {
      return { status: exception.status, code: exception.code, message: exception.message, headers: exception.headers };
    }
    if (exception instanceof HttpException) return this.renderHttp(exception, req);
    if (isPoolWaitTimeout(exception)) return this.render(POOL_BUSY, req);
    if (isDependencyUnavailable(exception)) return UNAVAILABLE;
    if (isStillReferencedRefusal(exception)) return this.render(new StillReferencedError(), req);
    return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' };
  }

  private renderHttp(exception: HttpException, req: Request): Rendered {
    const status = exception.getStatus();
    if (exception instanceof NotFoundException) {
      const allowed = this.routes?.allowedMethods(req.path) ?? [];
      // A route that serves this method let it through (a file missing under a static folder): not found, not 405.
      if (allowed.length > 0 && !allowed.includes(req.method.toUpperCase())) {
        return {
          status: 405,
          code: 'METHOD_NOT_ALLOWED',
          message: `${req.method} is not allowed on ${req.path}; allowed: ${allowed.join(', ')}`,
          headers: { Allow: allowed.join(', ') },
        };
      }
      return { status: 404, code: 'ROUTE_NOT_FOUND', message: `No route for ${req.method} ${req.path}` };
    }
    if (status === 400 && exception.cause instanceof SyntaxError) {
      return { status, code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' };
    }
    if (status === 503) return UNAVAILABLE;
    if (status >= 500) {
      return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' };
    }
    const code = GENERIC_CODES[status] ?? 'VALIDATION_FAILED';
    return { status, code, message: GENERIC_MESSAGES[status] ?? exception.message };
  }
}
