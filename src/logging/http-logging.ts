import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '@petstore/auth';
import type { NextFunction, Request, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { type HttpLogger, pinoHttp } from 'pino-http';
import { assignRequestId } from '../shared/http/request-id.js';
import { routeTemplate } from '../shared/http/route-template.js';
import { looksLikeKey, redactUrl } from './redaction.js';
import { ROOT_LOGGER } from './root-logger.js';

/** What the request log line says about a request (besides level, time, reqId and msg). */
export interface RequestLogFields {
  readonly method: string;
  /** The route template (`/pets/:petId`), or null for a path no route serves. */
  readonly route: string | null;
  readonly status: number;
  readonly durationMs: number;
  /** The id of the API key that sent the request, when it sent a valid one; never the key. */
  readonly apiKeyId?: number;
  /** The Error code of a failure (`RATE_LIMIT_EXCEEDED`, …), as recorded by the exception filter. */
  readonly code?: string;
  readonly req: Request;
}

function requestFields(req: Request, res: Response, durationMs: number): RequestLogFields {
  const code: unknown = res.locals.errorCode;
  const apiKeyId = (req as AuthenticatedRequest).apiKey?.id;
  return {
    method: req.method,
    route: routeTemplate(req) ?? null,
    status: res.statusCode,
    durationMs,
    ...(apiKeyId !== undefined ? { apiKeyId } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    req,
  };
}

function summary(req: Request, res: Response): string {
  return `${req.method} ${routeTemplate(req) ?? redactUrl(req.path)} ${res.statusCode}`;
}

/** A key sent as `X-Request-Id` would be echoed and bound to every line: such an id is replaced, like a malformed one. */
function requestId(req: Request, res: Response): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && looksLikeKey(incoming)) delete req.headers['x-request-id'];
  return assignRequestId(req, res);
}

/**
 * The request logger (pino-http), mounted first by `configureApp`. Per request it
 * assigns the request id (`X-Request-Id`: kept when valid, else generated), makes
 * `req.log` a logger bound to that id, runs the rest of the request in a logging
 * context bound to it (so every line logged through Nest's `Logger` during the
 * request carries `reqId`), and writes one line when the response ends: method,
 * route template, status, duration, API key id, error code. 5xx lines are at
 * level error; the exception filter logs their stack separately, through `req.log`.
 * No credential the client sent is logged (see `createRootLogger`).
 */
@Injectable()
export class HttpLogging {
  readonly middleware: (req: Request, res: Response, next: NextFunction) => void;
  private readonly http: HttpLogger<Request, Response>;

  constructor(@Inject(ROOT_LOGGER) logger: Logger, context: PinoLogger) {
    this.http = pinoHttp<Request, Response>({
      logger,
      genReqId: requestId,
      quietReqLogger: true,
      quietResLogger: true,
      customAttributeKeys: { responseTime: 'durationMs' },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      customSuccessMessage: summary,
      customErrorMessage: summary,
      customSuccessObject: (req, res, value: { durationMs: number }) => requestFields(req, res, value.durationMs),
      customErrorObject: (req, res, _error, value: { durationMs: number }) => requestFields(req, res, value.durationMs),
      // The root logger's serializers take the raw request (URL and headers redacted) and error.
      wrapSerializers: false,
    });
    this.middleware = (req, res, next) =>
      this.http(req, res, () => context.runInContext(next, { bindings: { reqId: req.id } }));
  }
}
