import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { allowedMethods } from './allowed-methods.js';
import { ApiError } from './api-error.js';
import { DomainError, STATUS_BY_KIND } from './domain-error.js';
import type { ErrorBody } from './error-body.js';
import { isDependencyUnavailable } from './unavailable-error.js';

interface Rendered extends ErrorBody {
  headers?: Readonly<Record<string, string>>;
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
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const body = this.render(exception, req);
    if (body.status >= 500) {
      const requestId = res.getHeader('X-Request-Id');
      const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      this.logger.error(
        `${req.method} ${req.originalUrl} -> ${body.status} ${body.code} [request ${String(requestId)}]: ${detail}`,
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(body.headers ?? {})) res.setHeader(name, value);
    res.status(body.status).json({ code: body.code, message: body.message, status: body.status });
  }

  private render(exception: unknown, req: Request): Rendered {
    if (exception instanceof DomainError) {
      return { status: STATUS_BY_KIND[exception.kind], code: exception.code, message: exception.message };
    }
    if (exception instanceof ApiError) {
      return { status: exception.status, code: exception.code, message: exception.message, headers: exception.headers };
    }
    if (exception instanceof HttpException) return this.renderHttp(exception, req);
    if (isDependencyUnavailable(exception)) {
      return {
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'A required dependency is unavailable; retry shortly',
      };
    }
    return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' };
  }

  private renderHttp(exception: HttpException, req: Request): Rendered {
    const status = exception.getStatus();
    if (exception instanceof NotFoundException) {
      const allowed = allowedMethods(req);
      if (allowed.length > 0) {
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
    if (status === 503) {
      return { status, code: 'SERVICE_UNAVAILABLE', message: 'A required dependency is unavailable; retry shortly' };
    }
    if (status >= 500) {
      return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' };
    }
    const code = GENERIC_CODES[status] ?? 'VALIDATION_FAILED';
    return { status, code, message: GENERIC_MESSAGES[status] ?? exception.message };
  }
}
